// js-yaml ships no types and @types/js-yaml is not installed: the few declarations used are beside this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./js-yaml.d.ts" />
/** Reads a suite: "builtin", or a JSON / YAML file checked by shared/suite.ts, its fixture folders resolved. */
import { load as loadYaml } from 'js-yaml';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import {
  BUILTIN_SUITE_NAME,
  builtinSuite,
  HISTORY_SUITE_NAME,
  historySuite,
  parseSuite,
  SuiteError,
  type Suite,
} from '../../shared/suite.js';
import { expandedTooLarge, SUITE_EXPANDED_VALUES } from './yaml-size.js';
import { namesTaskSet, TASK_SETS, taskSetSuite } from '../../shared/task-set-suites.js';
import { compileLinearRegex } from './linear-regex.js';

export interface LoadedSuite extends Suite {
  /** 'builtin' or the file's absolute path. */
  readonly source: string;
  /** Absolute fixture folder per custom task id that names one. */
  readonly fixtures: ReadonlyMap<string, string>;
}

export async function loadSuite(arg: string): Promise<LoadedSuite> {
  if (arg === BUILTIN_SUITE_NAME) return { ...builtinSuite(), source: BUILTIN_SUITE_NAME, fixtures: new Map() };
  if (arg === HISTORY_SUITE_NAME) return { ...historySuite(), source: HISTORY_SUITE_NAME, fixtures: new Map() };
  if (namesTaskSet(arg)) return { ...taskSetSuite(arg), source: arg, fixtures: new Map() };
  const file = resolve(arg);
  const ext = extname(file).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(ext)) {
    throw new Error(
      `A suite is "builtin", "history", a task set (${TASK_SETS.map((t) => `${t.id}, ${t.id}:<domain>`).join(', ')}) or a .json, .yaml or .yml file; got "${arg}". Rename the file or check the path.`,
    );
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(
      `Cannot read the suite file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}.`,
    );
  }
  let raw: unknown;
  try {
    raw = ext === '.json' ? JSON.parse(text) : loadYaml(text, { filename: file });
  } catch (error) {
    throw new Error(
      `The suite file ${file} is not valid ${ext === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}. Fix its syntax and run it again.`,
    );
  }
  const tooLarge = ext === '.json' ? null : expandedTooLarge(raw);
  if (tooLarge) {
    const values =
      tooLarge.values >= Number.MAX_SAFE_INTEGER
        ? 'without end (it contains itself)'
        : `to ${tooLarge.values.toLocaleString('en-US')} values`;
    throw new Error(
      `The suite file ${file} is refused: with its YAML aliases expanded, the value of ${tooLarge.key} grows ${values}, more than the ${SUITE_EXPANDED_VALUES.toLocaleString('en-US')} a suite may hold. ` +
        'Write that value out, or use fewer nested aliases (*name).',
    );
  }
  const suite = parseSuite(raw, file);
  const fixtures = new Map<string, string>();
  const problems: string[] = [];
  for (const [i, task] of suite.tasks.entries()) {
    if (task.kind === 'custom' && task.validator && 'regex' in task.validator) {
      const re = compileLinearRegex(task.validator.regex, task.validator.flags);
      if (typeof re === 'string') problems.push(`tasks[${i}] (${task.id}).validator.regex: ${re}`);
    }
    if (task.kind !== 'custom' || task.fixture === null) continue;
    const dir = resolve(dirname(file), task.fixture);
    const isDir = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir)
      problems.push(
        `tasks[${i}] (${task.id}).fixture: ${dir} is not a folder; give a folder relative to ${dirname(file)}`,
      );
    else fixtures.set(task.id, dir);
  }
  if (problems.length > 0) throw new SuiteError(problems, file);
  return { ...suite, source: file, fixtures };
}
