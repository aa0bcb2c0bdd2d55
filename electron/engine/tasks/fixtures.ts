/** Workspaces for the built-in tasks. Every run gets its own copy; the same seed always gives the same files. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BUILTIN_TASKS, findTask } from '../../../shared/tasks.js';
import { generateLogs } from './log-stats.js';
import { generateConfig, type FixtureFile } from './config-lookup.js';
import { generateServiceLog } from './write-errors.js';
import { generateReleaseNotes } from './missing-file.js';
import { generateOwnerChain } from './owner-chain.js';

export const DEFAULT_FIXTURE_SEED = 7;

/** Writes the task's fixture files into `dir` (created when missing); existing unrelated files are kept. */
export async function prepareFixture(taskId: string, dir: string, seed: number = DEFAULT_FIXTURE_SEED): Promise<void> {
  const task = findTask(taskId);
  if (!task) {
    const ids = BUILTIN_TASKS.map((t) => t.id).join(', ');
    throw new Error(`No fixture for task "${taskId}": built-in tasks are ${ids}. A free-text task runs in an empty folder or one you choose.`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new Error(`Fixture seed must be a whole number from 0 to 4294967295, got ${seed}.`);
  }
  await fs.mkdir(dir, { recursive: true });
  if (task.id === 'log-stats') {
    for (const file of generateLogs(seed)) await fs.writeFile(path.join(dir, file.name), file.content, 'utf8');
    await fs.writeFile(
      path.join(dir, 'README.md'),
      '# Service logs\n\nOne log per service (`*.txt`), one line per event: time, level, service, message.\n' +
        '`archive.log` holds last month\'s events and is not part of the current logs.\n',
      'utf8',
    );
    return;
  }
  const files = smallTaskFiles(task.id, seed) ?? generatedFiles(task.id, seed);
  if (files) {
    for (const file of files) {
      await fs.mkdir(path.dirname(path.join(dir, file.name)), { recursive: true });
      await fs.writeFile(path.join(dir, file.name), file.content, 'utf8');
    }
    return;
  }
  await fs.writeFile(
    path.join(dir, 'README.md'),
    `# ${task.title}\n\nThis workspace is intentionally empty: the task "${task.id}" needs no files.\n`,
    'utf8',
  );
}

/** The fixture files of the one-file tasks (names may hold a folder), or null for other tasks. */
function smallTaskFiles(taskId: string, seed: number): FixtureFile[] | null {
  switch (taskId) {
    case 'config-lookup':
      return generateConfig(seed);
    case 'write-errors':
      return generateServiceLog(seed);
    case 'missing-file':
      return generateReleaseNotes(seed);
    default:
      return null;
  }
}

/** The files of a task whose fixture is generated whole (folders included); null for the others. */
function generatedFiles(taskId: string, seed: number): readonly { name: string; content: string }[] | null {
  switch (taskId) {
    case 'owner-chain':
      return generateOwnerChain(seed);
    default:
      return null;
  }
}
