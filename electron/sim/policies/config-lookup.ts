/**
 * config-lookup, a single lookup: ReAct (and Hybrid, and ReAct + tool search, which are offered read_file
 * directly) reads the file once and answers; Code Mode writes a program that reads it and prints the value.
 * Both read server.port from the real content, so any seed's port is answered.
 */
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput } from './common.js';
import { firstLine, lastCall, objectResult, type Conversation } from './conversation.js';
import { programsFor } from './programs.js';

function portAnswer(port: number, file: string): SimReply {
  return finalAnswer([`The server listens on port ${port} (server.port in ${file}).`]);
}

export function reactConfigLookup(conv: Conversation, file: string): SimReply {
  const missing = missingTools(conv, ['read_file']);
  if (missing) return missing;
  const read = lastCall(conv, 'read_file', (a) => a.path === file);
  if (!read) return callTools([{ name: 'read_file', args: { path: file } }]);
  const server = objectResult(read.result)?.server;
  const port = typeof server === 'object' && server !== null ? (server as Record<string, unknown>).port : undefined;
  if (typeof port !== 'number')
    return finalAnswer([`I could not find the server port in ${file}: ${firstLine(read.result ?? 'no result')}`]);
  return portAnswer(port, file);
}

export function codeConfigLookup(conv: Conversation, file: string): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program) return callTools([{ name: 'run_code', args: { code: programsFor(conv).configPort(file) } }]);
  const out = programOutput(program.result);
  if (out.error) return finalAnswer([`My program could not read the port from ${file}: ${firstLine(out.error)}`]);
  const printed = out.printed.trim();
  if (!/^\d+$/.test(printed))
    return finalAnswer([
      `${file} holds no number at server.port: my program printed ${firstLine(printed || 'nothing')}.`,
    ]);
  return portAnswer(Number(printed), file);
}
