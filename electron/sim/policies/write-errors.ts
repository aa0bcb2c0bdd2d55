/**
 * write-errors, writing a file: ReAct reads the log, then writes the ERROR lines with write_file (the lines
 * travel to the model and back), then answers; a read cut short by truncation sends it to the shell (grep into
 * the file). Code Mode (and Hybrid, which has no direct write_file) filters and writes inside one program.
 */
import { errorLines } from '../../tasks/builtin/rules.js';
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput, shellQuote } from './common.js';
import { firstLine, lastCall, looksLikeError, type Conversation } from './conversation.js';
import { shellResult } from './log-stats.js';
import { programsFor } from './programs.js';

export interface WriteErrorsParams {
  readonly source: string;
  readonly target: string;
}

function wroteAnswer(count: number, { source, target }: WriteErrorsParams): SimReply {
  return finalAnswer([
    `I wrote the ${count} lines of ${source} that contain ERROR to ${target}, in their original order.`,
  ]);
}

export function reactWriteErrors(conv: Conversation, params: WriteErrorsParams): SimReply {
  const missing = missingTools(conv, ['read_file', 'write_file']);
  if (missing) return missing;
  const { source, target } = params;
  const read = lastCall(conv, 'read_file', (a) => a.path === source);
  if (!read) return callTools([{ name: 'read_file', args: { path: source } }]);
  if (read.result === undefined || looksLikeError(read.result))
    return finalAnswer([`I could not read ${source}: ${firstLine(read.result ?? 'no result')}`]);
  if (/truncated/i.test(read.result.slice(-200))) return viaShell(conv, params);
  const lines = errorLines(read.result);
  const write = lastCall(conv, 'write_file', (a) => a.path === target);
  if (!write)
    return callTools([{ name: 'write_file', args: { path: target, content: lines.map((l) => `${l}\n`).join('') } }]);
  if (write.result === undefined || !/^Wrote\b/.test(write.result.trim()))
    return finalAnswer([`Writing ${target} failed: ${firstLine(write.result ?? 'no result')}`]);
  return wroteAnswer(lines.length, params);
}

/** The read came back cut short: let grep write the file on the machine and count what it wrote. */
function viaShell(conv: Conversation, params: WriteErrorsParams): SimReply {
  const missing = missingTools(conv, ['run_shell']);
  if (missing)
    return finalAnswer([
      `${params.source} came back truncated and run_shell is not offered, so I cannot copy every ERROR line. Raise the truncation limit.`,
    ]);
  const command = `grep ERROR -- ${shellQuote(params.source)} > ${shellQuote(params.target)}; wc -l < ${shellQuote(params.target)}`;
  const shell = lastCall(conv, 'run_shell', (a) => a.command === command);
  if (!shell)
    return callTools(
      [{ name: 'run_shell', args: { command } }],
      `${params.source} came back truncated, so I let grep write ${params.target}.`,
    );
  const count = /^\s*(\d+)\s*$/.exec(shellResult(shell)?.stdout ?? '');
  if (!count)
    return finalAnswer([`The shell did not write ${params.target}: ${firstLine(shell.result ?? 'no result')}`]);
  return wroteAnswer(Number(count[1]), params);
}

export function codeWriteErrors(conv: Conversation, params: WriteErrorsParams): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program)
    return callTools([
      { name: 'run_code', args: { code: programsFor(conv).writeErrors(params.source, params.target) } },
    ]);
  const out = programOutput(program.result);
  if (out.error)
    return finalAnswer([`My program failed, so ${params.target} may not be complete: ${firstLine(out.error)}`]);
  const wrote = /^wrote (\d+) ERROR lines/m.exec(out.printed);
  if (!wrote)
    return finalAnswer([`My program did not report what it wrote: ${firstLine(out.printed || 'it printed nothing')}`]);
  return wroteAnswer(Number(wrote[1]), params);
}
