/**
 * The tutorial's model thought before every reply, and its thinking went back with the conversation. The
 * reference tutorial ran DeepSeek V4 Flash, whose thinking mode is on unless a request turns it off (its request
 * did not), and whose encoding keeps every turn's reasoning while tools are offered ("drop_thinking is disabled
 * with tools"; the hosted API refuses a tool-call turn sent back without its reasoning_content). Its loop appended
 * each reply verbatim, so every later request carried and was charged for all earlier reasoning. On the tutorial
 * profile the simulated model does the same: each reply carries `reasoning_content`, the engine sends it back
 * under that name, and the prompt count includes it (count-tokens.ts counts reasoning sent back).
 *
 * The thought is written from the reply the policy chose and the conversation it read: the goal when nothing has
 * been looked at yet, what the last result showed, what comes next and why. With thinking on, the model's "why"
 * lives in its reasoning and a tool-call turn's text is empty, as DeepSeek's thinking replies are.
 */
import type { PlannedCall, WireMessage } from './types.js';
import { textOf } from './types.js';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A call as the thought names it: the command or path it passes, a program by its size. */
function describeCall(call: PlannedCall): string {
  let args: Record<string, unknown> = {};
  try {
    args = JSON.parse(call.arguments) as Record<string, unknown>;
  } catch {
    return call.name;
  }
  if (typeof args.code === 'string')
    return `${call.name} with a program of ${plural(args.code.split('\n').length, 'line')}`;
  const shown = Object.entries(args)
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(', ');
  return shown ? `${call.name} with ${shown}` : call.name;
}

/** What the last tool result showed, in a clause. */
function lastResult(messages: readonly WireMessage[]): string {
  const results = messages.filter((m) => m.role === 'tool');
  const last = results.at(-1);
  if (!last) return '';
  const text = textOf(last.content ?? '').trim();
  const lines = text === '' ? 0 : text.split('\n').length;
  const failed = /^(error|traceback)|\[exit code [1-9]/im.test(text);
  return `So far ${plural(results.length, 'tool result')} came back; the last one ${failed ? 'reports a failure' : `shows ${plural(lines, 'line')} of output`}.`;
}

/** The reasoning of one reply: its text and calls as the policy chose them, `messages` the request it answers. */
export function thoughtFor(messages: readonly WireMessage[], text: string, calls: readonly PlannedCall[]): string {
  const task = textOf([...messages].find((m) => m.role === 'user')?.content ?? '').trim();
  const looked = messages.some((m) => m.role === 'tool');
  const opening = looked ? lastResult(messages) : `The user asks: ${task} Nothing has been looked at yet.`;
  if (calls.length === 0) return `${opening} That is everything the task needs, so I can write the answer now.`;
  const next = `Next I call ${calls.map(describeCall).join(' and ')}${calls.length > 1 ? ', together, since neither needs the other' : ''}.`;
  return [opening, next, text.trim()].filter(Boolean).join(' ');
}
