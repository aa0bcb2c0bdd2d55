/**
 * How an agent column's command starts, and what its program is shown inside the sandbox, resolved with the
 * user's environment (the host does it when a comparison starts; `parallax tools --variants` and the app's
 * agent row show it before any run):
 * - the program found on the user's PATH and followed to the real binary (launch/interpreter.ts: links, a
 *   version manager's shim asked), with its installation shown read-only; a virtual environment's python kept;
 * - `npx pkg …`, `npm exec pkg …` and `uv run …` rewritten to the project's own copy (launch/launchers.ts);
 *   a script whose `#!` line goes through env run by the interpreter it names, found the same way;
 * - the project root of each code word (the script, a --require/--import module) shown read-only, with the
 *   node_modules a monorepo hoists above it and the packages its node_modules links to (launch/visible-paths.ts);
 * - the column's `paths`, checked; every other word naming a file or folder is not shown (`hidden`).
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentCommand, AgentLaunch, AgentShownPath } from '../../../shared/agent-command.js';
import { codeWords, fileOfWord } from './launch/command-words.js';
import {
  familyOf,
  findOnPath,
  LaunchError,
  resolveInterpreter,
  shebangOf,
  shebangProgram,
  type Family,
  type Interpreter,
} from './launch/interpreter.js';
import { rewriteNpx, rewriteUvRun } from './launch/launchers.js';
import {
  hoistedNodeModules,
  isInside,
  isSystemPath,
  linkedPackages,
  projectOf,
  refusal,
  type PathRules,
} from './launch/visible-paths.js';

export { LaunchError } from './launch/interpreter.js';

export interface LaunchContext {
  /** The user's environment: PATH and the version managers' variables (never a worker's, whose HOME is a temp folder). */
  readonly env: NodeJS.ProcessEnv;
  /** Parallax's data folder: never shown. */
  readonly dataDir?: string | null;
  /** Default: env.HOME, else the OS's. */
  readonly home?: string;
  /** Default: the OS's temp folder. */
  readonly tmp?: string;
}

const realOr = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
const LABEL: Record<Family, string> = { python: 'Python', node: 'Node.js' };

export async function resolveAgentLaunch(agent: AgentCommand, ctx: LaunchContext): Promise<AgentLaunch> {
  const rules: PathRules = {
    home: realOr(ctx.home ?? ctx.env.HOME ?? homedir()),
    tmp: realOr(ctx.tmp ?? tmpdir()),
    dataDir: ctx.dataDir ? realOr(ctx.dataDir) : null,
  };
  const notes: string[] = [];
  let argv = [...agent.command];
  let known: number[] = [];
  const rewritten = rewriteNpx(argv, rules) ?? rewriteUvRun(argv, ctx.env, rules);
  if (rewritten) {
    ({ argv, code: known } = rewritten);
    notes.push(rewritten.note);
  } else if (path.isAbsolute(argv[0]!) && isFile(argv[0]!)) {
    // A script run by its #! line: through env, the shell would find that interpreter on the user's PATH.
    const line = shebangOf(argv[0]!);
    const interpreter = line ? shebangProgram(line) : null;
    if (
      interpreter &&
      familyOf(path.basename(interpreter)) &&
      !(path.isAbsolute(interpreter) && isSystemPath(interpreter))
    ) {
      notes.push(`${argv[0]} starts with #!${line!.join(' ')}: it runs as ${interpreter} ${path.basename(argv[0]!)}.`);
      argv = [interpreter, ...argv];
    }
  }
  const given = argv[0]!;
  let found: string | null = null;
  if (!given.includes('/')) {
    found = findOnPath(given, ctx.env.PATH);
    if (!found)
      throw new LaunchError(
        `${given} is not on your PATH (${ctx.env.PATH || 'empty'}). Install it, or give its full path as the command's first word.`,
      );
  } else if (path.isAbsolute(given)) {
    if (!existsSync(given)) throw new LaunchError(`${given} does not exist. Check the command's first word.`);
    found = given;
  } else {
    notes.push(`${given} is a relative path: it is looked for in each run's copy of the workspace.`);
  }
  const family = familyOf(path.basename(given)) ?? (found ? familyOf(path.basename(realOr(found))) : null);
  // The code words: what a launcher knows, then what the program's own options say.
  const start = known.length ? Math.max(...known) + 1 : 1;
  const own = codeWords(family ?? 'generic', argv.slice(start));
  const code = [...known, ...own.code.map((i) => i + start)];
  // The user's own program named as a path (./agent.sh, a compiled agent) is code too.
  if (!family && given.includes('/') && !known.length) code.unshift(0);
  const scripts = code.map((i) => argv[i]!).filter((w) => path.isAbsolute(w) && isFile(w));
  for (const w of code.map((i) => argv[i]!))
    if (!path.isAbsolute(w))
      notes.push(`${w} is a relative path: it is looked for in each run's copy of the workspace.`);

  const shown: AgentShownPath[] = [];
  const projects = scripts.map((s) => projectOf(s, rules));
  shown.push(...projects);
  let interp: Interpreter | null = null;
  if (family && found) {
    const cwd = projects.find((p) => !isFile(p.path))?.path ?? rules.home;
    interp = await resolveInterpreter(found, family, { cwd, env: ctx.env, rules });
    argv[0] = interp.program;
    if (interp.via) notes.push(interp.via);
    if (interp.venv) shown.push({ path: realOr(interp.venv), why: `the virtual environment of ${interp.program}` });
    if (interp.prefix)
      shown.push({
        path: interp.prefix,
        why: `the ${LABEL[family]} installation that runs it (${realOr(interp.program)})`,
      });
    if (given !== interp.program && !interp.via) notes.push(`${given} is ${interp.program} (found on your PATH).`);
  } else if (found && !given.includes('/')) {
    // An installed tool (bun, deno, …) outside the system folders: its installation.
    const real = realOr(found);
    argv[0] = real;
    const install = path.basename(path.dirname(real)) === 'bin' ? path.dirname(path.dirname(real)) : path.dirname(real);
    if (!isSystemPath(`${install}/`))
      shown.push({ path: refusal(install, rules) ? real : install, why: `the installation of ${given} (${real})` });
    if (shebangOf(real))
      notes.push(
        `${found} is a script (a version manager's shim?): inside the sandbox it runs as it is, and may not find what it calls. If it fails, give the real program's full path.`,
      );
  }
  for (const root of projects) {
    if (!existsSync(path.join(root.path, 'node_modules')) && family !== 'node') continue;
    shown.push(...hoistedNodeModules(root.path, rules));
    shown.push(
      ...linkedPackages(
        root.path,
        shown.map((s) => s.path),
        rules,
      ),
    );
  }
  if (family === 'python' && !interp?.venv) {
    const unused = projects.find((p) => existsSync(path.join(p.path, '.venv', 'bin', 'python')));
    if (unused)
      notes.push(
        `The project ${unused.path} has a virtual environment (.venv) that this command does not use: write [".venv/bin/python", …] or ["uv", "run", …] to run with its packages.`,
      );
  }
  for (const listed of agent.paths ?? []) shown.push(checkListedPath(listed, rules));

  const kept = dedupe(shown);
  const hidden: AgentShownPath[] = [];
  argv.forEach((word, i) => {
    if (i === 0 || code.includes(i)) return;
    const file = fileOfWord(word);
    if (!path.isAbsolute(file) || !existsSync(file)) return;
    const real = realOr(file);
    if (isSystemPath(real) || kept.some((s) => isInside(real, s.path))) return;
    hidden.push({
      path: file,
      why: "an argument, not code: not shown inside the sandbox (the program sees only the path). List it in the column's agent.paths to show it.",
    });
  });
  const pathDirs = interp && !isSystemPath(interp.program) ? [path.dirname(interp.program)] : [];
  return { argv, pathDirs, env: interp?.venv ? { VIRTUAL_ENV: interp.venv } : {}, shown: kept, hidden, notes };
}

/** One entry of the column's `paths`: full, existing, and not a folder that may never be shown. */
function checkListedPath(listed: string, rules: PathRules): AgentShownPath {
  if (!path.isAbsolute(listed))
    throw new LaunchError(
      `agent.paths: ${listed} is not a full path. Write it from / (in a variants or suite file, a relative path is taken from the file's folder).`,
    );
  if (!existsSync(listed))
    throw new LaunchError(`agent.paths: ${listed} does not exist. Fix the path or leave it out.`);
  const real = realOr(listed);
  const refused = refusal(real, rules);
  if (refused)
    throw new LaunchError(
      `agent.paths: ${listed} may not be shown to an agent: ${refused}. List the folder the program needs, not one around it.`,
    );
  return { path: real, why: "listed in the column's agent.paths" };
}

/** Without the system folders (always shown) and without paths inside another shown one. */
function dedupe(shown: readonly AgentShownPath[]): AgentShownPath[] {
  const out: AgentShownPath[] = [];
  for (const s of shown) {
    if (isSystemPath(s.path) || isSystemPath(`${s.path}/`)) continue;
    if (out.some((o) => isInside(s.path, o.path))) continue;
    for (let i = out.length - 1; i >= 0; i--) if (isInside(out[i]!.path, s.path)) out.splice(i, 1);
    out.push(s);
  }
  return out;
}
