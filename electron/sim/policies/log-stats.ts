/**
 * log-stats. ReAct: list_dir, then read_file of every .txt in one step (parallel calls), then the answer
 * counted from the contents; when a read came back truncated it counts with wc/grep through run_shell instead,
 * as a real model does. Code Mode: one program that lists, reads, counts and prints a small table.
 */
import { countLog } from '../../engine/tasks/log-stats.js';
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput, shellQuote } from './common.js';
import { jsonResult, lastCall, looksLikeError, firstLine, objectResult, type Conversation } from './conversation.js';

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
  const missing = missingTools(conv, ['list_dir', 'read_file']);
  if (missing) return missing;
  const listing = lastCall(conv, 'list_dir');
  if (!listing) return callTools([{ name: 'list_dir', args: { path: '.' } }]);
  const names = jsonResult(listing.result);
  if (!Array.isArray(names)) return finalAnswer([`I could not list the directory: ${firstLine(listing.result ?? 'no result')}`]);
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
  if (reads.some((r) => wasTruncated(r.call!.result!))) return countWithShell(conv, txt);
  return logStatsAnswer(reads.map((r) => ({ name: r.name, ...countLog(r.call!.result!) })));
}

/** The reads were cut short: count on the machine with `wc -l` and `grep -c`, both in one step. */
function countWithShell(conv: Conversation, txt: readonly string[]): SimReply {
  const missing = missingTools(conv, ['run_shell']);
  if (missing) return missing;
  const files = txt.map(shellQuote).join(' ');
  const wcCommand = `wc -l ${files}`;
  const grepCommand = `grep -c -H ERROR ${files}`;
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
  const totals = parseCounts(objectResult(wc.result)?.stdout, /^\s*(\d+)\s+(.+)$/, 2, 1);
  const errors = parseCounts(objectResult(grep.result)?.stdout, /^(.+):(\d+)$/, 1, 2);
  const rows = txt.map((name) => ({ name, total: totals.get(name), errors: errors.get(name) }));
  if (rows.some((r) => r.total === undefined || r.errors === undefined)) {
    const why = [wc, grep].map((c) => firstLine(c.result ?? 'no result')).join(' / ');
    return finalAnswer([`I could not count the logs: the shell commands did not report every file (${why}).`]);
  }
  return logStatsAnswer(rows.map((r) => ({ name: r.name, total: r.total!, errors: r.errors! })));
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

/** The program a model writes for this task: everything stays in variables, only a table is printed. */
export const LOG_STATS_PROGRAM = `const files = list_dir('.').filter((name) => name.endsWith('.txt')).sort();
if (files.length === 0) print('no .txt files');
const rows = files.map((name) => {
  const lines = read_file(name).split('\\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { name, total: lines.length, errors: lines.filter((line) => line.includes('ERROR')).length };
});
for (const row of rows) print(row.name + '\\t' + row.total + '\\t' + row.errors);`;

export function codeLogStats(conv: Conversation): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program) return callTools([{ name: 'run_code', args: { code: LOG_STATS_PROGRAM } }]);
  const out = programOutput(program.result);
  const rows: Row[] = [];
  for (const line of out.printed.split('\n')) {
    const m = /^(.+)\t(\d+)\t(\d+)$/.exec(line);
    if (m) rows.push({ name: m[1], total: Number(m[2]), errors: Number(m[3]) });
  }
  if (out.error) return finalAnswer([`My program failed, so I cannot give the counts: ${firstLine(out.error)}`]);
  if (rows.length === 0) {
    if (/no \.txt files/.test(out.printed)) return noTxt([]);
    return finalAnswer([`My program printed no counts, so I cannot answer. It printed: ${firstLine(out.printed || '(nothing)')}`]);
  }
  return logStatsAnswer(rows);
}
