/**
 * log-stats: five service logs with a seeded mix of INFO/WARN/ERROR lines, a few hundred lines each (so a
 * ReAct read_file result is large), plus one non-.txt log with more ERROR lines than any .txt file, so
 * counting it by mistake changes the answer. Same seed, same bytes. The validator recounts the workspace.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../../shared/seeded-random.js';
import type { Validation } from '../../../shared/step-event.js';
import { codeLogStats, reactLogStats } from '../../sim/policies/log-stats.js';
import { numbersIn } from '../numbers-in.js';
import { judgedFileDetail, listJudgedFolder, readJudgedFile } from '../judged-file.js';
import { countLog } from './rules.js';
import { defineTask, type WorkspaceFile } from '../task.js';

export const logStats = defineTask({
  id: 'log-stats',
  workspace: (seed) => [
    ...generateLogs(seed),
    {
      name: 'README.md',
      content:
        '# Service logs\n\nOne log per service (`*.txt`), one line per event: time, level, service, message.\n' +
        "`archive.log` holds last month's events and is not part of the current logs.\n",
    },
  ],
  validate: (answer, ctx) => validateLogStats(answer, ctx.workspace),
  sim: {
    detect: (text) => (/\.txt\b/.test(text) && /\bERROR\b/.test(text) && /\blines?\b/i.test(text) ? {} : null),
    react: (conv) => reactLogStats(conv),
    code: (conv) => codeLogStats(conv),
  },
});

const SERVICES = ['api-gateway', 'auth-service', 'billing', 'scheduler', 'web-frontend'] as const;

const MESSAGES: Record<'INFO' | 'WARN' | 'ERROR', readonly string[]> = {
  INFO: [
    'request handled in {n} ms',
    'cache warmed with {n} entries',
    'health check passed',
    'user session started (id {n})',
    'config reloaded from disk',
    'queue drained, {n} jobs done',
    'connection pool resized to {n}',
  ],
  WARN: [
    'slow response: {n} ms over budget',
    'retrying upstream call (attempt {n})',
    'disk usage at {n} percent',
    'deprecated endpoint called by client {n}',
  ],
  ERROR: [
    'upstream timed out after {n} ms',
    'database connection refused',
    'payment provider returned status 5{n}',
    'unhandled exception in worker {n}',
    'message could not be parsed at offset {n}',
  ],
};

/** Five .txt logs with a unique maximum of ERROR lines, and `archive.log` with more ERROR lines than all of them. */
export function generateLogs(seed: number): WorkspaceFile[] {
  const rand = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  for (;;) {
    const files = SERVICES.map((service) => {
      const lines = 120 + Math.floor(rand() * 200);
      const errorRate = 0.03 + rand() * 0.12;
      const warnRate = 0.1 + rand() * 0.1;
      return { name: `${service}.txt`, content: logLines(service, lines, errorRate, warnRate, rand, pick) };
    });
    const counts = files.map((f) => countLog(f.content).errors);
    const max = Math.max(...counts);
    // Re-draw until one file clearly leads, so "the file with the most ERROR lines" has one right answer.
    if (counts.filter((c) => c >= max - 2).length !== 1) continue;
    const archive = logLines('archive', 200, Math.min(0.9, (max + 30) / 200), 0.05, rand, pick);
    if (countLog(archive).errors <= max) continue;
    return [...files, { name: 'archive.log', content: archive }];
  }
}

function logLines(
  service: string,
  count: number,
  errorRate: number,
  warnRate: number,
  rand: () => number,
  pick: <T>(items: readonly T[]) => T,
): string {
  let clock = Date.UTC(2026, 10, 30, 8, 0, 0) + Math.floor(rand() * 60_000);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    clock += 200 + Math.floor(rand() * 9000);
    const roll = rand();
    const level = roll < errorRate ? 'ERROR' : roll < errorRate + warnRate ? 'WARN' : 'INFO';
    const text = pick(MESSAGES[level]).replace('{n}', String(1 + Math.floor(rand() * 999)));
    out.push(`${new Date(clock).toISOString()} ${level.padEnd(5)} [${service}] ${text}`);
  }
  return `${out.join('\n')}\n`;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The name as a whole token, not part of a longer file name. */
function nameRe(name: string): RegExp {
  return new RegExp(`(^|[^\\w.-])${escapeRe(name)}(?![\\w-]|\\.\\w)`);
}

async function validateLogStats(answer: string, workspace: string): Promise<Validation> {
  let entries: string[];
  try {
    entries = (await listJudgedFolder(workspace, '')).map((e) => e.name);
  } catch (error) {
    return {
      ok: false,
      detail: `Could not read the workspace ${workspace} to recount the logs: ${(error as Error).message}.`,
    };
  }
  const files: { name: string; total: number; errors: number }[] = [];
  for (const name of entries.sort()) {
    if (!name.endsWith('.txt')) continue;
    // A .txt that is a folder is no log; one that is a link, a FIFO or a device ends the check, saying so.
    if ((await fs.lstat(path.join(workspace, name))).isDirectory()) continue;
    try {
      files.push({ name, ...countLog(await readJudgedFile(workspace, name)) });
    } catch (error) {
      return {
        ok: false,
        detail:
          judgedFileDetail(error) ??
          `Could not read ${name} in the workspace to recount it: ${(error as Error).message}.`,
      };
    }
  }
  if (files.length === 0) return { ok: false, detail: 'Expected .txt files in the workspace to recount, found none.' };

  const lines = answer.split('\n');
  const problems: string[] = [];
  for (const f of files) {
    const re = nameRe(f.name);
    // Numbers on a line that names the file, the name itself removed so digits in it do not count.
    const found = lines.filter((l) => re.test(l)).map((l) => numbersIn(l.split(f.name).join(' ')));
    if (found.length === 0) problems.push(`${f.name} is not mentioned`);
    else if (!found.some((nums) => nums.includes(f.total) && nums.includes(f.errors))) {
      problems.push(
        `${f.name} should show ${f.total} lines and ${f.errors} ERROR lines, found ${found.map((n) => n.join('/') || 'no numbers').join('; ')}`,
      );
    }
  }
  const max = Math.max(...files.map((f) => f.errors));
  const leaders = files.filter((f) => f.errors === max).map((f) => f.name);
  const named = namedAsMost(
    lines,
    files.map((f) => f.name),
  );
  if (named === null)
    problems.push(`no line names the file with the most ERROR lines (expected ${leaders.join(' or ')})`);
  else if (!leaders.includes(named))
    problems.push(`named ${named} as having the most ERROR lines, expected ${leaders.join(' or ')} (${max})`);

  const expected = files.map((f) => `${f.name} ${f.total}/${f.errors}`).join(', ');
  if (problems.length > 0)
    return { ok: false, detail: `Expected ${expected}; max ${leaders.join(' or ')}; but ${problems.join('; ')}.` };
  return {
    ok: true,
    detail: `Expected and found ${expected}, and ${leaders.join(' or ')} named as having the most ERROR lines (${max}).`,
  };
}

/** The first file named on a line that speaks of the most/highest/largest count. */
function namedAsMost(lines: readonly string[], names: readonly string[]): string | null {
  for (const line of lines) {
    if (!/\b(most|max(imum)?|highest|largest|greatest|top)\b/i.test(line)) continue;
    let first: { name: string; at: number } | null = null;
    for (const name of names) {
      const m = nameRe(name).exec(line);
      if (m && (first === null || m.index < first.at)) first = { name, at: m.index };
    }
    if (first) return first.name;
  }
  return null;
}
