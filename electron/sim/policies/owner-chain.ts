/**
 * owner-chain: three dependent reads. ReAct (and ReAct + tool search, whose read_file is offered from the
 * start) reads incidents.log, counts the ERROR lines per service, reads that service's config, then the
 * owner's person file: one round trip per hop, each resending what came before. Code Mode and Hybrid write
 * one program that follows the whole chain and prints the result.
 */
import { errorsByService } from '../../tasks/builtin/rules.js';
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput } from './common.js';
import { firstLine, lastCall, looksLikeError, objectResult, type Conversation } from './conversation.js';
import { programsFor } from './programs.js';

function ownerAnswer(service: string, errors: number, owner: string, name: string): SimReply {
  return finalAnswer([
    `${service} has the most ERROR entries in incidents.log (${errors}).`,
    `Its config names owner ${owner}, and people/${owner}.json says that is ${name}.`,
    '',
    `The owner's full name: ${name}.`,
  ]);
}

const failed = (what: string, result: string | undefined): SimReply =>
  finalAnswer([`I could not ${what}: ${firstLine(result ?? 'no result was returned')}`]);

export function reactOwnerChain(conv: Conversation): SimReply {
  const missing = missingTools(conv, ['read_file']);
  if (missing) return missing;
  const log = lastCall(conv, 'read_file', (a) => a.path === 'incidents.log');
  if (!log) return callTools([{ name: 'read_file', args: { path: 'incidents.log' } }]);
  if (log.result === undefined || looksLikeError(log.result)) return failed('read incidents.log', log.result);
  const leader = [...errorsByService(log.result)].sort((a, b) => b[1] - a[1])[0];
  if (!leader) return finalAnswer(['incidents.log holds no ERROR entries, so no service stands out.']);
  const [service, errors] = leader;
  const configPath = `services/${service}.json`;
  const config = lastCall(conv, 'read_file', (a) => a.path === configPath);
  if (!config)
    return callTools(
      [{ name: 'read_file', args: { path: configPath } }],
      `${service} has the most ERROR entries (${errors}); now its config.`,
    );
  const owner = objectResult(config.result)?.owner;
  if (typeof owner !== 'string') return failed(`find the owner in ${configPath}`, config.result);
  const personPath = `people/${owner}.json`;
  const person = lastCall(conv, 'read_file', (a) => a.path === personPath);
  if (!person) return callTools([{ name: 'read_file', args: { path: personPath } }]);
  const name = objectResult(person.result)?.name;
  if (typeof name !== 'string') return failed(`read the name in ${personPath}`, person.result);
  return ownerAnswer(service, errors, owner, name);
}

export function codeOwnerChain(conv: Conversation): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program) return callTools([{ name: 'run_code', args: { code: programsFor(conv).ownerChain } }]);
  const out = programOutput(program.result);
  const line = out.printed.split('\n').find((l) => l.startsWith('{'));
  const found = line === undefined ? undefined : objectResult(line);
  if (out.error || !found || typeof found.name !== 'string') {
    return failed('follow the chain', out.error ?? (out.printed || 'the program printed nothing'));
  }
  return ownerAnswer(String(found.service), Number(found.errors), String(found.owner), found.name);
}
