/** Small pieces every scripted policy shares: the simulated label, missing-tool answers, program output. */
import { seededRandom } from '../../../shared/seeded-random.js';
import { answer, type SimReply } from '../types.js';
import { isVagueDescription } from '../../engine/tools/tool-descriptions.js';
import type { Conversation } from './conversation.js';

/**
 * The random draws of one trial for one decision (`what`, e.g. 'log-stats'): a PRNG seeded from both, so the
 * same trial always behaves the same (the server stays pure) and decisions do not move in lockstep.
 */
export function trialDraws(trial: number, what: string): () => number {
  let hash = 0x811c9dc5; // FNV-1a over "what#trial"
  for (const ch of `${what}#${trial}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  return seededRandom(hash >>> 0);
}

/** Appended to every final answer so the text itself says where it came from. */
export const SIM_LABEL = '(simulated model: scripted policy)';

export function finalAnswer(lines: readonly string[]): SimReply {
  return answer([...lines, '', SIM_LABEL].join('\n'));
}

/** A plain answer when the tools this policy needs are not offered (it never calls a tool it was not given). */
export function missingTools(conv: Conversation, names: readonly string[]): SimReply | null {
  const missing = names.filter((n) => !conv.toolNames.has(n));
  if (missing.length === 0) return null;
  const offered = [...conv.toolNames].join(', ') || 'none';
  return finalAnswer([
    `I cannot do this task: it needs the tool${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not offered (offered: ${offered}).`,
  ]);
}

/** Whether the named tools (any offered, when none is) carry the vague descriptions of the toolDescriptions setting. */
export function descriptionsVague(
  conv: Conversation,
  names: readonly string[] = [...conv.toolDescriptions.keys()],
): boolean {
  const described = names.map((n) => conv.toolDescriptions.get(n)).filter((d): d is string => d !== undefined);
  return described.length > 0 && described.every(isVagueDescription);
}

/**
 * Whether an earlier program failed because a search_tools handle was missing: the search found nothing fitting
 * (vague descriptions leave only the tool names to match), and the program called `undefined` (JavaScript) or
 * indexed an empty list (Python).
 */
export function searchMissed(conv: Conversation): boolean {
  return conv.calls.some((c) => {
    const code = typeof c.args.code === 'string' ? c.args.code : '';
    const error = c.name === 'run_code' ? programOutput(c.result).error : null;
    if (!error || !code.includes('search_tools(')) return false;
    if (/IndexError: list index out of range/.test(error)) return true;
    const line = code.split('\n')[Number(/line (\d+)/.exec(error)?.[1] ?? 0) - 1] ?? '';
    const handles = [...code.matchAll(/(\w+) = search_tools\(/g)].map((m) => m[1]);
    return /not a function|undefined/.test(error) && handles.some((h) => new RegExp(`\\b${h}\\s*[(.]`).test(line));
  });
}

/** Whether run_code keeps variables between calls (codeState 'persist': its description says so). */
export function variablesPersist(conv: Conversation): boolean {
  return /variables and functions stay for your next run_code call/.test(conv.runCodeDescription);
}

/** Whether the run_code description shows return types (read_file's catalog line carries `: string` or `-> string`). */
export function returnTypesShown(conv: Conversation): boolean {
  return /read_file\([^)]*\)\s*(:|->)\s*str/.test(conv.runCodeDescription);
}

export interface ProgramOutput {
  /** What the program printed before any error. */
  readonly printed: string;
  /** The error line(s), e.g. "Error at line 3, column 12: TypeError: …" or a Python traceback, or null. */
  readonly error: string | null;
}

/** Splits a run_code result into printed output and the error the sandbox appended, if any. */
export function programOutput(result: string | undefined): ProgramOutput {
  if (result === undefined) return { printed: '', error: 'no result was returned for the program' };
  // Parallax's sandbox appends "Error at line …"; a Python sandbox may append a traceback instead.
  const match = /(^|\n)((Error\b|Traceback \(most recent call last\):)[^\n]*(\n[\s\S]*)?)$/.exec(result);
  if (!match) return { printed: result, error: null };
  return { printed: result.slice(0, match.index).trimEnd(), error: match[2].trim() };
}

/** `"a b"` → `'a b'` for /bin/sh; inner single quotes closed and escaped. */
export function shellQuote(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
