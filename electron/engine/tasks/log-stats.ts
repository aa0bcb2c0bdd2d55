/**
 * The log-stats fixture: five service logs with a seeded mix of INFO/WARN/ERROR lines, a few hundred lines
 * each (so a ReAct read_file result is large), plus one non-.txt log with more ERROR lines than any .txt
 * file, so counting it by mistake changes the answer. Same seed, same bytes.
 */
import { seededRandom } from '../../../shared/seeded-random.js';

export { seededRandom };

/** Counting rule shared by the validator and the simulated model: a line ends with "\n" (as `wc -l` and
 * Python's splitlines count), a final line without one still counts, and ERROR is matched case-sensitively. */
export function countLog(text: string): { total: number; errors: number } {
  if (text === '') return { total: 0, errors: 0 };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { total: lines.length, errors: lines.filter((l) => l.includes('ERROR')).length };
}


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

export interface LogFile {
  readonly name: string;
  readonly content: string;
}

/** Five .txt logs with a unique maximum of ERROR lines, and `archive.log` with more ERROR lines than all of them. */
export function generateLogs(seed: number): LogFile[] {
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
