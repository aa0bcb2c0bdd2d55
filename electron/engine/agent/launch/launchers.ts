/**
 * Commands that start the agent through a launcher, rewritten to what the launcher would run, because inside
 * the sandbox the launcher itself cannot work: `npx tsx src/agent.ts` looks for tsx from the run's workspace
 * copy and then downloads it; `uv run agent.py` syncs the project's environment (writes, network). Both run
 * the project's own copy instead, which is what they would have found in the project's folder.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { codeWords } from './command-words.js';
import { LaunchError, shebangOf } from './interpreter.js';
import { nearestWith, type PathRules } from './visible-paths.js';

export interface Rewritten {
  /** The command to run instead; its first word may still need PATH (node). */
  readonly argv: string[];
  /** Indexes into argv of code words the launcher itself knows (the package's own program). */
  readonly code: number[];
  readonly note: string;
}

const NPX_FLAGS = new Set([
  '-y',
  '--yes',
  '--no',
  '--no-install',
  '-q',
  '--quiet',
  '--silent',
  '--prefer-offline',
  '--offline',
]);

/** The first absolute word after `from` that its program would run as a script, for finding the project. */
function scriptAmong(words: readonly string[], family: 'node' | 'python' | 'generic'): string | null {
  const { code } = codeWords(family, words);
  const first = code.map((i) => words[i]!).find((w) => path.isAbsolute(w));
  return first ?? null;
}

/** `npx [flags] pkg args…` or `npm exec [flags] [--] pkg args…`: the project's node_modules/.bin/pkg, run with node when it is a script for node. */
export function rewriteNpx(command: readonly string[], rules: PathRules): Rewritten | null {
  const isNpx = path.basename(command[0]!) === 'npx';
  const isNpmExec = path.basename(command[0]!) === 'npm' && command[1] === 'exec';
  if (!isNpx && !isNpmExec) return null;
  const shown = isNpx ? 'npx' : 'npm exec';
  let i = isNpx ? 1 : 2;
  for (; i < command.length; i++) {
    const w = command[i]!;
    if (w === '--') continue;
    if (NPX_FLAGS.has(w)) continue;
    if (w.startsWith('-'))
      throw new LaunchError(
        `${shown} ${w} is not supported in an agent column: name the package's program and its script, e.g. ["npx", "tsx", "src/agent.ts"].`,
      );
    break;
  }
  const spec = command[i];
  if (spec === undefined)
    throw new LaunchError(`${shown} names no package to run: write e.g. ["npx", "tsx", "src/agent.ts"].`);
  // tsx@4 → tsx; @scope/pkg@1 → @scope/pkg; the bin is named after the package's last part.
  const name = spec
    .replace(/(.)@[^/]*$/, '$1')
    .split('/')
    .pop()!;
  const rest = command.slice(i + 1);
  const script = scriptAmong(rest, 'node');
  if (!script)
    throw new LaunchError(
      `${shown} ${spec}: give the script as a path (a variants or suite file's own are found beside it), e.g. ["npx", "${spec}", "src/agent.ts"], so Parallax can find the project whose ${name} to run.`,
    );
  const found = nearestWith(path.dirname(realpathSync(script)), [`node_modules/.bin/${name}`], rules);
  if (!found) {
    throw new LaunchError(
      `${shown} ${spec}: ${name} is not installed in the project of ${script} (no node_modules/.bin/${name} in its folder or one above it). Install it there (npm install --save-dev ${name}); inside the sandbox npx could not download it.`,
    );
  }
  const bin = path.join(found.dir, 'node_modules', '.bin', name);
  const target = realpathSync(bin);
  const shebang = shebangOf(target);
  const forNode = /\.(c|m)?js$/.test(target) || (shebang !== null && shebang.some((w) => path.basename(w) === 'node'));
  const note = `${shown} ${spec} runs ${bin} (${target}): the project's own copy, as npx would find it from the project's folder.`;
  return forNode ? { argv: ['node', target, ...rest], code: [1], note } : { argv: [target, ...rest], code: [0], note };
}

/** Options of `uv run` that change nothing here, and those that take a value. */
const UV_FLAGS = new Set([
  '--no-sync',
  '--frozen',
  '--locked',
  '--offline',
  '-q',
  '--quiet',
  '--no-progress',
  '--active',
  '--exact',
  '--inexact',
]);
const UV_PROJECT = new Set(['--project', '--directory']);

/** `uv run [opts] [python] script.py args…`: the project's virtual environment's python (uv sync made it). */
export function rewriteUvRun(command: readonly string[], env: NodeJS.ProcessEnv, rules: PathRules): Rewritten | null {
  if (path.basename(command[0]!) !== 'uv' || command[1] !== 'run') return null;
  let project: string | null = null;
  let i = 2;
  for (; i < command.length; i++) {
    const w = command[i]!;
    if (w === '--') {
      i++;
      break;
    }
    if (UV_FLAGS.has(w)) continue;
    const [flag, inline] = w.split(/=(.*)/s) as [string, string | undefined];
    if (UV_PROJECT.has(flag)) {
      project = inline ?? command[++i] ?? null;
      continue;
    }
    if (w.startsWith('-'))
      throw new LaunchError(
        `uv run ${flag} is not supported in an agent column: Parallax runs the project's environment (.venv, made by uv sync) directly. Leave the option out, or give ["path/to/.venv/bin/python", "agent.py"].`,
      );
    break;
  }
  let rest = command.slice(i);
  if (rest.length === 0) throw new LaunchError('uv run names nothing to run: write e.g. ["uv", "run", "agent.py"].');
  const viaPython = /^python(\d+(\.\d+)*)?$/.test(rest[0]!);
  if (viaPython) rest = rest.slice(1);
  const script = viaPython ? scriptAmong(rest, 'python') : path.isAbsolute(rest[0]!) ? rest[0]! : null;
  let dir: string;
  if (project) {
    if (!path.isAbsolute(project))
      throw new LaunchError(
        `uv run --project ${project}: give the project as a full path (a variants or suite file's own are found beside it).`,
      );
    dir = project;
  } else {
    if (!script)
      throw new LaunchError(
        'uv run: give the script as a path (a variants or suite file\'s own are found beside it), e.g. ["uv", "run", "agent.py"], so Parallax can find its project.',
      );
    const found = nearestWith(path.dirname(realpathSync(script)), ['pyproject.toml'], rules);
    if (!found)
      throw new LaunchError(
        `uv run: ${script} is in no project (no pyproject.toml in its folder or one above it). Run it with the interpreter instead, e.g. ["python3", "${path.basename(script)}"].`,
      );
    dir = found.dir;
  }
  const envDir = env.UV_PROJECT_ENVIRONMENT ? path.resolve(dir, env.UV_PROJECT_ENVIRONMENT) : path.join(dir, '.venv');
  const python = path.join(envDir, 'bin', 'python');
  if (!existsSync(python)) {
    throw new LaunchError(
      `uv run: the project ${dir} has no environment yet (${python} is missing). Run \`uv sync\` in ${dir} once; Parallax then runs that environment's Python (inside the sandbox uv could neither download nor write it).`,
    );
  }
  const note = `uv run runs ${python}, the project's environment (as uv sync left it; the sandbox does not sync it again).`;
  if (viaPython || rest[0]!.endsWith('.py')) return { argv: [python, ...rest], code: [], note };
  // `uv run some-tool …`: the environment's own program of that name.
  const tool = path.join(envDir, 'bin', rest[0]!);
  if (!existsSync(tool))
    throw new LaunchError(
      `uv run ${rest[0]}: no program of that name in ${path.join(envDir, 'bin')}. Add the package that provides it to the project (uv add …, then uv sync).`,
    );
  return { argv: [tool, ...rest.slice(1)], code: [0], note: `uv run runs ${tool} from the project's environment.` };
}
