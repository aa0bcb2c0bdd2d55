/**
 * log-stats, calibrated on documented real runs. Trial 1 (and a request without a trial) is the documented
 * run. ReAct counts on the machine: `wc -l *.txt`, then `grep -c ERROR *.txt`, then two checking rounds it
 * decided on itself (a listing, a look at the leader's ERROR lines), then the answer: 5 steps, all run_shell.
 * Code Mode first runs a small program that lists the folder and peeks at one file, then the counting
 * program, then answers: 3 steps. Later trials draw from the same observations (logStatsStyle): 0-2 checking
 * rounds, listing and reading the files instead of the shell (less often; a truncated read still ends in
 * wc/grep), and Code Mode exploring first or not. A shell that is refused or fails sends ReAct to read_file.
 */
import { countLog } from '../../tasks/builtin/rules.js';
import { callTools, type SimReply } from '../types.js';
import { JS_PROGRAMS, programsFor } from './programs.js';
import {
  descriptionsVague,
  variablesPersist,
  finalAnswer,
  missingTools,
  programOutput,
  shellQuote,
  trialDraws,
} from './common.js';
import type { SimModelId } from '../../../shared/sim-models.js';
import { SEED_BASE } from '../../engine/tools/seed-tools.js';
import {
  lastCall,
  looksLikeError,
  firstLine,
  namesResult,
  objectResult,
  textResult,
  type CallRecord,
  type Conversation,
} from './conversation.js';

type CheckKind = 'listing' | 'leader-lines';

/** How one trial goes about log-stats. */
export interface LogStatsStyle {
  /** ReAct: count with wc/grep on the machine (as the observed real model did), or list and read every file. */
  readonly react: 'shell' | 'read';
  /** ReAct: the checking rounds made after counting, before answering, in order (the observed model made two). */
  readonly checks: readonly CheckKind[];
  /** Code Mode: a small program that lists and peeks before the counting one (the observed model did). */
  readonly explore: boolean;
  /** ReAct: wc and grep as two parallel calls of one step, not one after the other. */
  readonly parallel?: boolean;
  /** Code Mode: count `split('\n')` pieces, so a file ending in a newline counts one line too many. */
  readonly offByOne?: boolean;
  /** ReAct: the first shell calls name their argument `cmd`, as guessed, and fail the argument check. */
  readonly guessesArgs?: boolean;
}

/** The documented real run. */
export const SEED_LOG_STATS_STYLE: LogStatsStyle = {
  react: 'shell',
  checks: ['listing', 'leader-lines'],
  explore: true,
};

/**
 * Trial 1 is the documented real run; later trials draw: reading 1 in 10 (the observed model never read), 0, 1 or 2
 * checking rounds alike, exploring first 3 in 5. The personalities (shared/sim-models.ts): sim-careful always
 * explores and checks twice, as the documented run did; sim-hasty counts in one parallel step, never checks or
 * explores, and its program miscounts on trial 1 and 1 in 2 later trials (the split-on-newline slip real models
 * make when they do not look at the data first).
 */
export function logStatsStyle(trial: number, model: SimModelId = 'sim'): LogStatsStyle {
  if (model === 'sim-careful') return SEED_LOG_STATS_STYLE;
  if (model === 'sim-hasty') {
    const draw = trialDraws(trial, 'log-stats-hasty');
    return {
      react: 'shell',
      checks: [],
      explore: false,
      parallel: true,
      offByOne: trial <= 1 || draw() < 0.5,
      guessesArgs: trial > 1 && draw() < 1 / 3,
    };
  }
  if (trial <= 1) return SEED_LOG_STATS_STYLE;
  const draw = trialDraws(trial, 'log-stats');
  const count = Math.floor(draw() * 3);
  const kinds: CheckKind[] = draw() < 0.5 ? ['listing', 'leader-lines'] : ['leader-lines', 'listing'];
  const explore = draw() < 0.6;
  return { react: draw() < 0.1 ? 'read' : 'shell', checks: kinds.slice(0, count), explore };
}

interface Row {
  readonly name: string;
  readonly total: number;
  readonly errors: number;
}

export function logStatsAnswer(rows: readonly Row[]): SimReply {
  const max = Math.max(...rows.map((r) => r.errors));
  const leaders = rows.filter((r) => r.errors === max).map((r) => r.name);
  return finalAnswer([
    '| file | lines | ERROR lines |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.total} | ${r.errors} |`),
    '',
    leaders.length === 1
      ? `The file with the most ERROR lines is ${leaders[0]} (${max}).`
      : `The most ERROR lines (${max}) are shared by ${leaders.join(' and ')}.`,
  ]);
}

function noTxt(names: readonly string[]): SimReply {
  return finalAnswer([`There are no .txt files in the current directory (entries: ${names.join(', ') || 'none'}).`]);
}

const wasTruncated = (text: string): boolean => /truncated/i.test(text.slice(-200));

export function reactLogStats(conv: Conversation): SimReply {
  const style = logStatsStyle(conv.trial, conv.model);
  // Vague descriptions (exercise 2): run_shell no longer says it runs commands, and read_file and list_dir read
  // alike ("Do something with a path."), so the model opens the folder with read_file first, then recovers.
  if (descriptionsVague(conv, ['list_dir', 'read_file'])) {
    if (!lastCall(conv, 'read_file', (a) => a.path === '.'))
      return callTools([{ name: 'read_file', args: { path: '.' } }], 'Let me look at the folder.');
    return reactViaReads(conv, style, 'read_file does not take a folder; list_dir must be the one that lists it.');
  }
  if (style.react === 'shell' && conv.toolNames.has('run_shell')) return reactViaShell(conv, style);
  return reactViaReads(conv, style);
}

const WC_ALL = 'wc -l *.txt';
const GREP_ALL = 'grep -c ERROR *.txt';

/**
 * A run_shell result, as Parallax's tool returns it ({exitCode, stdout, stderr}) or as plain text (what it
 * printed, maybe ending in "[exit code N]"); null when the call was refused or failed before running.
 */
export function shellResult(
  call: CallRecord | undefined,
): { stdout: string; stderr: string; exitCode: unknown } | null {
  const out = objectResult(call?.result);
  if (out)
    return typeof out.stdout === 'string'
      ? { stdout: out.stdout, stderr: typeof out.stderr === 'string' ? out.stderr : '', exitCode: out.exitCode }
      : null;
  const text = textResult(call?.result);
  if (text === undefined) return null;
  const code = /\n?\[exit code ([^\]]*)\]\s*$/.exec(text);
  const stdout = (code ? text.slice(0, code.index) : text).replace(/^\(no output\)$/, '');
  // Plain text mixes stdout and stderr; a failing command's message is both.
  return code ? { stdout, stderr: stdout, exitCode: Number(code[1]) || code[1] } : { stdout, stderr: '', exitCode: 0 };
}

/** Some run_shell call was refused, or failed without output (no such command): no more shell for this run. */
const shellUnusable = (conv: Conversation): boolean =>
  conv.calls.some((c) => {
    if (c.name !== 'run_shell') return false;
    const out = shellResult(c);
    return !out || (out.stdout.trim() === '' && out.exitCode !== 0);
  });

/** The observed way: counts from `wc -l` and `grep -c` over the glob; reading the files when the shell fails. */
function reactViaShell(conv: Conversation, style: LogStatsStyle): SimReply {
  const wc = lastCall(conv, 'run_shell', (a) => a.command === WC_ALL);
  if (style.parallel && !wc && !lastCall(conv, 'run_shell', (a) => a.command === GREP_ALL)) {
    const guess = style.guessesArgs && !lastCall(conv, 'run_shell', (a) => 'cmd' in a);
    const arg = guess ? 'cmd' : 'command';
    return callTools([
      { name: 'run_shell', args: { [arg]: WC_ALL } },
      { name: 'run_shell', args: { [arg]: GREP_ALL } },
    ]);
  }
  if (!wc) return callTools([{ name: 'run_shell', args: { command: WC_ALL } }]);
  const lines = shellResult(wc);
  if (!lines)
    return reactViaReads(
      conv,
      style,
      `run_shell did not run (${firstLine(wc.result ?? 'no result', 120)}), so I will read the files instead.`,
    );
  const totals = parseCounts(lines.stdout, /^\s*(\d+)\s+(.+)$/, 2, 1);
  totals.delete('total');
  if (totals.size === 0) {
    if (/No such file/i.test(lines.stderr))
      return finalAnswer(['There are no .txt files in the current directory (`wc -l *.txt` matched none).']);
    // No wc here, or it refused the names: read the files instead, as a model would.
    return reactViaReads(
      conv,
      style,
      `\`${WC_ALL}\` printed no counts (${firstLine(lines.stderr || lines.stdout || 'no output', 120)}), so I will read the files instead.`,
    );
  }
  const grep = lastCall(conv, 'run_shell', (a) => a.command === GREP_ALL);
  if (!grep) return callTools([{ name: 'run_shell', args: { command: GREP_ALL } }]);
  const matches = shellResult(grep);
  const names = [...totals.keys()];
  const errors = parseCounts(matches?.stdout, /^(.+):(\d+)$/, 1, 2);
  // With a single file grep prints the bare count, without the name.
  const bare = /^\s*(\d+)\s*$/.exec(matches?.stdout ?? '');
  if (names.length === 1 && bare) errors.set(names[0], Number(bare[1]));
  const rows = names.map((name) => ({ name, total: totals.get(name)!, errors: errors.get(name) }));
  if (rows.some((r) => r.errors === undefined)) {
    return finalAnswer([
      `I could not count the ERROR lines: \`${GREP_ALL}\` did not report every file (${firstLine(grep.result ?? 'no result')}).`,
    ]);
  }
  const counted = rows.map((r) => ({ name: r.name, total: r.total, errors: r.errors! }));
  return checkingRound(conv, style, counted) ?? logStatsAnswer(counted);
}

/** The checking rounds the style asks for, one per step, before the answer; none once the shell failed. */
function checkingRound(conv: Conversation, style: LogStatsStyle, rows: readonly Row[]): SimReply | null {
  if (!conv.toolNames.has('run_shell') || shellUnusable(conv) || rows.length === 0) return null;
  const leader = rows.reduce((best, r) => (r.errors > best.errors ? r : best), rows[0]).name;
  for (const kind of style.checks) {
    const command = kind === 'listing' ? 'ls -la' : `grep -n ERROR ${shellQuote(leader)} | head -5`;
    if (lastCall(conv, 'run_shell', (a) => a.command === command)) continue;
    const why =
      kind === 'listing'
        ? 'Let me check that no .txt file was missed.'
        : `Let me look at a few ERROR lines of ${leader} to confirm they are real errors.`;
    return callTools([{ name: 'run_shell', args: { command } }], why);
  }
  return null;
}

/** list_dir, then read_file of every .txt in one step (parallel calls), then counting the contents. */
function reactViaReads(conv: Conversation, style: LogStatsStyle, note = ''): SimReply {
  const missing = missingTools(conv, ['list_dir', 'read_file']);
  if (missing) return missing;
  const listing = lastCall(conv, 'list_dir');
  if (!listing) return callTools([{ name: 'list_dir', args: { path: '.' } }], note);
  const names = namesResult(listing.result);
  if (!names) return finalAnswer([`I could not list the directory: ${firstLine(listing.result ?? 'no result')}`]);
  const txt = names.filter((n): n is string => typeof n === 'string' && n.endsWith('.txt'));
  if (txt.length === 0) return noTxt(names.map(String));

  const reads = txt.map((name) => ({ name, call: lastCall(conv, 'read_file', (a) => a.path === name) }));
  const unread = reads.filter((r) => !r.call).map((r) => r.name);
  if (unread.length > 0) return callTools(unread.map((path) => ({ name: 'read_file', args: { path } })));

  const failed = reads.filter((r) => r.call?.result === undefined || looksLikeError(r.call.result));
  if (failed.length > 0) {
    return finalAnswer([
      'I could not count every log, because some reads failed:',
      ...failed.map((r) => `- ${r.name}: ${firstLine(r.call?.result ?? 'no result')}`),
    ]);
  }
  if (reads.some((r) => wasTruncated(r.call!.result!))) return countWithShell(conv, txt, style);
  const rows = reads.map((r) => ({ name: r.name, ...countLog(r.call!.result!) }));
  return checkingRound(conv, style, rows) ?? logStatsAnswer(rows);
}

/** The reads were cut short: count on the machine with `wc -l` and `grep -c`, both in one step. */
function countWithShell(conv: Conversation, txt: readonly string[], style: LogStatsStyle): SimReply {
  const missing = missingTools(conv, ['run_shell']);
  if (missing) return missing;
  const refused = conv.calls.find((c) => c.name === 'run_shell' && !shellResult(c));
  if (refused) {
    return finalAnswer([
      `The files came back truncated and run_shell did not run (${firstLine(refused.result ?? 'no result', 120)}), so I cannot count them exactly. Allow run_shell or raise the truncation limit.`,
    ]);
  }
  const files = txt.map(shellQuote).join(' ');
  const wcCommand = `wc -l -- ${files}`; // "--": a name like "-x.txt" is a file, not an option
  const grepCommand = `grep -c -H ERROR -- ${files}`;
  const wc = lastCall(conv, 'run_shell', (a) => a.command === wcCommand);
  const grep = lastCall(conv, 'run_shell', (a) => a.command === grepCommand);
  if (!wc || !grep) {
    return callTools(
      [
        ...(wc ? [] : [{ name: 'run_shell', args: { command: wcCommand } }]),
        ...(grep ? [] : [{ name: 'run_shell', args: { command: grepCommand } }]),
      ],
      'The file contents came back truncated, so I will count the lines with wc and grep instead.',
    );
  }
  const totals = parseCounts(shellResult(wc)?.stdout, /^\s*(\d+)\s+(.+)$/, 2, 1);
  const errors = parseCounts(shellResult(grep)?.stdout, /^(.+):(\d+)$/, 1, 2);
  const rows = txt.map((name) => ({ name, total: totals.get(name), errors: errors.get(name) }));
  if (rows.some((r) => r.total === undefined || r.errors === undefined)) {
    const why = [wc, grep].map((c) => firstLine(c.result ?? 'no result')).join(' / ');
    return finalAnswer([`I could not count the logs: the shell commands did not report every file (${why}).`]);
  }
  const counted = rows.map((r) => ({ name: r.name, total: r.total!, errors: r.errors! }));
  return checkingRound(conv, style, counted) ?? logStatsAnswer(counted);
}

function parseCounts(stdout: unknown, re: RegExp, nameGroup: number, countGroup: number): Map<string, number> {
  const out = new Map<string, number>();
  if (typeof stdout !== 'string') return out;
  for (const line of stdout.split('\n')) {
    const m = re.exec(line);
    if (m) out.set(m[nameGroup], Number(m[countGroup]));
  }
  return out;
}

/** The programs a model writes for this task (JavaScript; programs.ts has both languages). */
export const LOG_STATS_PROGRAM = JS_PROGRAMS.logStats;
export const EXPLORE_PROGRAM = JS_PROGRAMS.explore;

export function codeLogStats(conv: Conversation): SimReply {
  const programs = programsFor(conv);
  // The tutorial's second request (594 tokens) left 133 for its first step's thinking, program and output: room
  // for a listing, not for a peek at three of this fixture's long log lines (docs/simulated-model.md).
  const explore = conv.systemPrompt.startsWith(SEED_BASE) ? programs.exploreList : programs.explore;
  const style = logStatsStyle(conv.trial, conv.model);
  const explored = lastCall(conv, 'run_code', (a) => a.code === explore);
  // With variables kept (codeState 'persist'), the count reuses the `names` the exploring program stored.
  const reuse = explored !== undefined && variablesPersist(conv) && /\bnames \(/.test(explored.result ?? '');
  const logStats = reuse ? programs.logStatsReuse : style.offByOne ? programs.logStatsSplit : programs.logStats;
  const program = lastCall(conv, 'run_code', (a) => a.code === logStats);
  if (!program) {
    if (!style.explore) return callTools([{ name: 'run_code', args: { code: logStats } }]);
    if (!explored) return callTools([{ name: 'run_code', args: { code: explore } }]);
    const look = programOutput(explored.result);
    const names = look.printed.split('\n').filter((line) => line !== '' && !line.includes(' '));
    // Nothing to count: say so now. Otherwise (also when the look failed) the counting program decides.
    if (
      !look.error &&
      names.length > 0 &&
      !look.printed.includes('first lines of ') &&
      !names.some((n) => n.endsWith('.txt'))
    )
      return noTxt(names);
    return callTools(
      [{ name: 'run_code', args: { code: logStats } }],
      'Now I count the lines and ERROR lines of every .txt file in one program.',
    );
  }
  const out = programOutput(program.result);
  const rows: Row[] = [];
  for (const line of out.printed.split('\n')) {
    const m = /^(.+)\t(\d+)\t(\d+)$/.exec(line);
    if (m) rows.push({ name: m[1], total: Number(m[2]), errors: Number(m[3]) });
  }
  if (out.error) return finalAnswer([`My program failed, so I cannot give the counts: ${firstLine(out.error)}`]);
  if (rows.length === 0) {
    if (/no \.txt files/.test(out.printed)) return noTxt([]);
    return finalAnswer([
      `My program printed no counts, so I cannot answer. It printed: ${firstLine(out.printed || '(nothing)')}`,
    ]);
  }
  return logStatsAnswer(rows);
}
