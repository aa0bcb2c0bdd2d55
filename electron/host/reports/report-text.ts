/**
 * The text pieces every report format shares: the settings list (settingsRows, with the knobs' rows), approval
 * outcomes, a report's file name, UTC times, tool arguments as JSON, base URLs without credentials. Numbers and
 * durations are written by shared/number-format.ts (by hand, never with the machine's locale: reports must be
 * reproducible), re-exported here for the report renderers.
 */
import { knobRows } from '../../../shared/run-knobs.js';
import { toolsetLabel } from '../../../shared/toolsets.js';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { APPROVAL_KEYS } from '../../../shared/approval.js';
import type { RunSettings } from '../../../shared/run-spec.js';

// Numbers and durations are written as on every other surface (shared/number-format.ts).
import { formatDuration as formatMs, formatInt } from '../../../shared/number-format.js';
export { formatInt, formatMs };

/** Epoch ms → "2026-11-30 14:05:09 UTC" (UTC, so the text is the same on every machine). */
export function formatUtc(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

/** A short name for a file: lower case letters, digits and dashes. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'comparison'
  );
}

export function reportFileName(meta: ComparisonMeta, ext: string): string {
  const task = meta.task.id ? `${slug(meta.task.id)}-` : '';
  return `parallax-${task}${slug(meta.id)}.${ext}`;
}

/** Settings as label/value rows, in a fixed order, for the settings table. */
export function settingsRows(s: RunSettings): [string, string][] {
  return [
    ['Max steps', String(s.maxSteps)],
    ['Tool result truncated at', `${formatInt(s.truncateChars)} chars`],
    ['Temperature', s.temperature === null ? 'provider default' : String(s.temperature)],
    ['Retries per request', String(s.maxRetries)],
    ['Request timeout', formatMs(s.requestTimeoutMs)],
    ['Code timeout', formatMs(s.codeTimeoutMs)],
    ['Code memory', `${s.codeMemoryMb} MB`],
    ['Code output cap', `${formatInt(s.codeOutputChars)} chars`],
    ['Code tool-call cap', String(s.codeMaxToolCalls)],
    ['Return types in catalog', s.returnTypes ? 'shown' : 'hidden'],
    // Comparisons stored before tool profiles existed all ran Parallax's tools; their rows stay as they were.
    ...(s.toolset ? [['Tools', toolsetLabel(s.toolset)] as [string, string]] : []),
    ...knobRows(s),
    ['Simulated faults', s.simFaults.length ? s.simFaults.join(', ') : 'none'],
    // Comparisons stored before approvals existed keep their settings list (and their reports' bytes).
    ...(s.approvals && Object.keys(s.approvals).length
      ? [['Tool approvals', approvalText(s.approvals)] as [string, string]]
      : []),
  ];
}

// The experiment knobs' rows (shared/run-knobs.ts), each only when it differs from its default: comparisons that
// did not set them (and those stored before they existed) keep their settings list and their reports' bytes.
export { knobRows };

/** The approval policy as recorded; comparisons stored before it existed ran every tool without asking. */
export function approvalText(policy: RunSettings['approvals'] | undefined): string {
  const set = APPROVAL_KEYS.filter((t) => policy?.[t]).map((t) => `${t === 'mcp' ? 'MCP tools' : t} ${policy![t]}`);
  return set.length ? set.join(', ') : 'not recorded (every tool ran without asking)';
}

const DECISIONS = {
  allow: 'allowed by the user',
  deny: 'denied by the user',
  'allow-comparison': 'allowed for the whole comparison',
  cancelled: 'not answered (the run was cancelled)',
} as const;

/** What follows the tool's name: " (inside the program): denied by the user after 4.7 s (…)". */
export function approvalOutcome(
  inProgram: boolean,
  decision: keyof typeof DECISIONS | null,
  waitedMs: number | null,
): string {
  const what = decision ? DECISIONS[decision] : 'still waiting when the run stopped';
  const wait = waitedMs !== null && waitedMs >= 1 ? ` after ${formatMs(waitedMs)} (kept out of the run's time)` : '';
  return `${inProgram ? ' (inside the program)' : ''}: ${what}${wait}`;
}

/** JSON text of tool arguments, pretty when they parse; the raw string when the model sent invalid JSON. */
export function formatArgs(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args, null, 2) ?? String(args);
}

/** Length in characters of the tool definitions as sent (JSON of name, description, parameters). */
export function toolDefinitionChars(
  tools: readonly { name: string; description: string; parameters: unknown }[],
): number {
  return tools.length ? JSON.stringify(tools).length : 0;
}

/** A base URL for display, without any user:password@ part (a URL can carry credentials; reports must not). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return `${u.toString()} (credentials removed)`;
  } catch {
    return url;
  }
}
