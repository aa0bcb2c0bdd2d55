/**
 * write-errors: one short service.log (small enough that read_file returns it whole under the default
 * truncation) with a seeded mix of levels, and an INFO line that says "error" in lower case, so a
 * case-insensitive filter writes a wrong file. The validator compares the errors.log the run wrote with the
 * ERROR lines of the workspace's service.log.
 */
import type { Validation } from '../../../shared/step-event.js';
import { seededRandom } from '../../../shared/seeded-random.js';
import { codeWriteErrors, reactWriteErrors } from '../../sim/policies/write-errors.js';
import { numbersIn } from '../numbers-in.js';
import { errorLines } from './rules.js';
import { defineTask, type WorkspaceFile } from '../task.js';
import { judgedFileDetail, readJudgedFile } from '../judged-file.js';

export const SOURCE_LOG = 'service.log';
export const ERRORS_FILE = 'errors.log';

export const writeErrors = defineTask({
  id: 'write-errors',
  workspace: generateServiceLog,
  validate: (answer, ctx) => validateWriteErrors(answer, ctx.workspace),
  sim: {
    detect: (text) => {
      const logs = [...text.matchAll(/([\w./-]+\.(?:log|txt))\b/g)].map((m) => m[1]);
      if (!/\bERROR\b/.test(text) || !/\b(into|to) (a new file )?[\w./-]+/i.test(text) || logs.length < 2) return null;
      return { source: logs[0], target: logs[1] };
    },
    react: reactWriteErrors,
    code: codeWriteErrors,
  },
});

const MESSAGES = {
  INFO: [
    'request handled in {n} ms',
    'cache warmed with {n} entries',
    'health check passed',
    'retry budget reset after error window {n}',
  ],
  WARN: ['slow response: {n} ms over budget', 'disk usage at {n} percent'],
  ERROR: ['upstream timed out after {n} ms', 'database connection refused', 'payment provider returned status 5{n}'],
} as const;

/** 36 to 44 lines, at least three of them ERROR lines, one INFO line with a lower-case "error". */
export function generateServiceLog(seed: number): WorkspaceFile[] {
  const rand = seededRandom(seed);
  const count = 36 + Math.floor(rand() * 9);
  const lowercaseAt = Math.floor(rand() * count);
  let clock = Date.UTC(2026, 10, 30, 9, 0, 0);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    clock += 500 + Math.floor(rand() * 20_000);
    const roll = rand();
    // Every 9th line is an ERROR, so even an unlucky seed has a few.
    const level = i === lowercaseAt ? 'INFO' : i % 9 === 4 || roll < 0.1 ? 'ERROR' : roll < 0.25 ? 'WARN' : 'INFO';
    const choices: readonly string[] = MESSAGES[level];
    const template = i === lowercaseAt ? MESSAGES.INFO[3] : choices[Math.floor(rand() * choices.length)];
    const text = template.replace('{n}', String(1 + Math.floor(rand() * 99)));
    out.push(`${new Date(clock).toISOString()} ${level.padEnd(5)} ${text}`);
  }
  return [
    { name: SOURCE_LOG, content: `${out.join('\n')}\n` },
    { name: 'README.md', content: '# Service log\n\n`service.log`: one line per event: time, level, message.\n' },
  ];
}

async function validateWriteErrors(answer: string, workspace: string): Promise<Validation> {
  let expected: string[];
  try {
    expected = errorLines(await readJudgedFile(workspace, SOURCE_LOG));
  } catch (error) {
    return {
      ok: false,
      detail:
        judgedFileDetail(error) ??
        `Could not read ${SOURCE_LOG} in the workspace to check ${ERRORS_FILE}: ${(error as Error).message}.`,
    };
  }
  let written: string;
  try {
    written = await readJudgedFile(workspace, ERRORS_FILE);
  } catch (error) {
    return {
      ok: false,
      detail:
        judgedFileDetail(error) ??
        `Expected ${ERRORS_FILE} with the ${expected.length} ERROR lines of ${SOURCE_LOG}; the run wrote no ${ERRORS_FILE}.`,
    };
  }
  // The lines in order; a final newline is optional.
  const lines = written.endsWith('\n') ? written.slice(0, -1).split('\n') : written.split('\n');
  const same = written !== '' && lines.length === expected.length && lines.every((l, i) => l === expected[i]);
  const told = numbersIn(answer).includes(expected.length);
  const problems: string[] = [];
  if (!same) {
    const firstDiff = lines.findIndex((l, i) => l !== expected[i]);
    const where =
      firstDiff >= 0 ? `line ${firstDiff + 1} differs` : `it has ${written === '' ? 0 : lines.length} lines`;
    problems.push(`${ERRORS_FILE} is not the ERROR lines of ${SOURCE_LOG} (${where})`);
  }
  if (!told) problems.push(`the answer does not say ${expected.length}`);
  const head = `Expected ${ERRORS_FILE} to hold the ${expected.length} ERROR lines of ${SOURCE_LOG}, in order, and the answer to say ${expected.length}`;
  return problems.length
    ? { ok: false, detail: `${head}; but ${problems.join('; ')}.` }
    : { ok: true, detail: `${head}: both found.` };
}
