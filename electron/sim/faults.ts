/**
 * Fault injection for the simulated model. HTTP faults ('429-once', '500', 'hang') are handled by the server;
 * the reply faults below break the first tool call of a run once, in a way the tool side must report back:
 * the conversation itself shows whether a fault already happened, so no server state is needed for them.
 */
import { SIM_FAULTS, type SimFault } from '../../shared/run-spec.js';
import { ENDLESS_PROGRAM, type Conversation } from './policies/conversation.js';
import { callTools, type PlannedCall, type SimReply } from './types.js';

export const FAULTS_HEADER = 'x-parallax-sim-faults';
export const RUN_ID_HEADER = 'x-parallax-run-id';
/** Which trial of its mode a request belongs to (1-based); the policies draw their variation from it. */
export const TRIAL_HEADER = 'x-parallax-sim-trial';
/** Highest trial number accepted: far above any comparison's trials, low enough to stay an exact integer. */
export const MAX_SIM_TRIAL = 1_000_000;

/** Parses the trial header: absent or empty is trial 1; anything but a whole number 1..MAX_SIM_TRIAL throws. */
export function parseTrial(value: string | readonly string[] | undefined): number {
  const text = (Array.isArray(value) ? value.join(',') : ((value as string | undefined) ?? '')).trim();
  if (text === '') return 1;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_SIM_TRIAL) {
    throw new Error(
      `Invalid ${TRIAL_HEADER} header "${text.slice(0, 40)}": give the trial as a whole number from 1 to ${MAX_SIM_TRIAL}, or leave it out for trial 1.`,
    );
  }
  return n;
}

/** Parses "429-once, malformed-args"; throws a message naming the valid faults for anything else. */
export function parseFaults(value: string | readonly string[] | undefined): SimFault[] {
  if (value === undefined) return [];
  const items = (Array.isArray(value) ? value.join(',') : (value as string))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((f) => !(SIM_FAULTS as readonly string[]).includes(f));
  if (bad.length > 0)
    throw new Error(
      `Unknown simulated fault${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}. Valid faults: ${SIM_FAULTS.join(', ')}.`,
    );
  return items as SimFault[];
}

/** Plausible wrong names a model might invent for each tool. */
const MISNAMED: Record<string, string> = {
  list_dir: 'list_directory',
  read_file: 'open_file',
  run_shell: 'bash',
  current_time: 'get_time',
  fetch_url: 'browse',
  get_weather: 'weather',
  calculator: 'calc',
  run_code: 'run_python',
  search_tools: 'tool_search',
};

function misnamed(name: string, offered: ReadonlySet<string>): string {
  let candidate = MISNAMED[name] ?? `${name}_tool`;
  while (offered.has(candidate)) candidate += '_v2';
  return candidate;
}

/** How many times a model stuck on its first call ('repeat-call') makes it again when nothing stops it. */
export const MAX_REPEATS = 3;

/**
 * 'repeat-call': a model stuck in a loop makes its run's first call again, unchanged, up to MAX_REPEATS times,
 * and goes on as soon as a repeat note says the call was not run (repeatGuard 'on'); null when it goes on.
 */
function repeatedCall(conv: Conversation): SimReply | null {
  const [first] = conv.calls;
  if (!first || conv.repeatNotes > 0) return null;
  const same = (c: { name: string; args: Record<string, unknown> }) =>
    c.name === first.name && JSON.stringify(c.args) === JSON.stringify(first.args);
  if (!conv.calls.every(same) || conv.calls.length > MAX_REPEATS) return null;
  return callTools([{ name: first.name, args: first.args }], 'Let me make that call again to be sure.');
}

/** Applies at most one reply fault per reply, each once per run, always to the reply's first call. */
export function injectReplyFaults(reply: SimReply, conv: Conversation, faults: ReadonlySet<SimFault>): SimReply {
  if (faults.has('repeat-call')) reply = repeatedCall(conv) ?? reply;
  if (reply.kind !== 'tools' || reply.calls.length === 0) return reply;
  const [first, ...rest] = reply.calls;
  let broken: PlannedCall | null = null;
  if (faults.has('unknown-tool') && !conv.injected.has('unknown-tool')) {
    broken = { name: misnamed(first.name, conv.toolNames), arguments: first.arguments };
  } else if (faults.has('malformed-args') && !conv.injected.has('malformed-args')) {
    // A cut-off JSON object, as when a model stops mid-argument.
    broken = { name: first.name, arguments: first.arguments.slice(0, -1) || '{' };
  } else if (faults.has('loop-forever') && !conv.injected.has('loop-forever') && first.name === 'run_code') {
    broken = { name: 'run_code', arguments: JSON.stringify({ code: ENDLESS_PROGRAM }) };
  }
  return broken ? { ...reply, calls: [broken, ...rest] } : reply;
}

/** When the previous turn's call was broken by a fault, the retry says it read the error. */
export function withRecoveryNote(reply: SimReply, conv: Conversation): SimReply {
  if (reply.kind !== 'tools' || conv.lastFaultError === null || reply.text !== '') return reply;
  const error = conv.lastFaultError.trim().split('\n')[0].slice(0, 200);
  return { ...reply, text: `My previous call failed (${error}). Trying again.` };
}
