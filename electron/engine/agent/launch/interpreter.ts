/**
 * The interpreter an agent column names, found as the user's shell would find it (their PATH) and followed to
 * the real binary: through symbolic links (nvm, fnm, uv's Python, a virtual environment's python) and, for a
 * version manager's shim (pyenv, asdf and rbenv write scripts; volta and mise link to one binary), by asking
 * the interpreter itself, in the project's folder so a pinned version (.python-version, .nvmrc,
 * .tool-versions) is honoured. Inside the sandbox the real binary runs: the shim's manager is not there.
 */
import { execFile } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { isSystemPath, refusal, type PathRules } from './visible-paths.js';

export type Family = 'python' | 'node';

/** python, python3, python3.12, pypy3 → python; node, nodejs → node. */
export function familyOf(name: string): Family | null {
  if (/^(python|pypy)(\d+(\.\d+)*)?$/.test(name)) return 'python';
  if (/^(node|nodejs)$/.test(name)) return 'node';
  return null;
}

/** `program` on the PATH given (full, existing, executable entries only); null when it is not there. */
export function findOnPath(program: string, searchPath: string | undefined): string | null {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* next */
    }
  }
  return null;
}

/** The `#!` line of a file as words (`#!/usr/bin/env -S node --flag` → ["/usr/bin/env", "-S", "node", "--flag"]); null when it has none. */
export function shebangOf(file: string): string[] | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n).toString('utf8');
    if (!head.startsWith('#!')) return null;
    return head.slice(2).split('\n')[0]!.trim().split(/\s+/).filter(Boolean);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The interpreter a `#!` line names: `env [-S] python3 …` → python3; `/abs/node` → /abs/node. */
export function shebangProgram(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  if (path.basename(words[0]!) === 'env') return words.slice(1).find((w) => !w.startsWith('-')) ?? null;
  return words[0]!;
}

export interface Interpreter {
  readonly family: Family;
  /** What runs: the real binary, or a virtual environment's python as written (it finds its pyvenv.cfg by that path). */
  readonly program: string;
  /** Its installation outside the system folders (shown read-only); null when it is a system one. */
  readonly prefix: string | null;
  /** The virtual environment's folder, when the program is a venv's python. */
  readonly venv: string | null;
  /** How it was found, one sentence (a shim asked, a link followed); null when it is what PATH gave. */
  readonly via: string | null;
}

const MARK = '@@parallax-probe@@';
const PROBES: Record<Family, string[]> = {
  python: [
    '-c',
    `import sys,json;print("\\n${MARK}"+json.dumps([sys.executable,sys.prefix,getattr(sys,"base_prefix",sys.prefix),"%d.%d.%d"%tuple(sys.version_info[:3])]))`,
  ],
  node: ['-e', `process.stdout.write("\\n${MARK}"+JSON.stringify([process.execPath,"","",process.version]))`],
};
/** Variables no probe needs: whatever holds a key stays out of the child. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION/i;
const PROBE_MS = 20_000;

export class LaunchError extends Error {}

/** Asks the interpreter behind a shim where it really is, in `cwd` (the project), with the user's environment less its keys. */
async function probe(
  found: string,
  family: Family,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ executable: string; prefix: string; basePrefix: string; version: string }> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SECRET_NAME.test(k)) clean[k] = v;
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(found, PROBES[family], {
      cwd,
      env: clean,
      timeout: PROBE_MS,
      maxBuffer: 1024 * 1024,
      encoding: 'utf8',
    }));
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    const said = (e.stderr ?? '').trim().split('\n').slice(-3).join(' ').slice(0, 400) || e.message;
    throw new LaunchError(
      `${found} is a version manager's shim, and asking it which ${family === 'python' ? 'Python' : 'Node.js'} it runs (in ${cwd}) failed: ${said}. Check that it works in a terminal there, or give the interpreter's full path.`,
    );
  }
  const line = stdout.split('\n').find((l) => l.startsWith(MARK));
  const parsed = line ? (JSON.parse(line.slice(MARK.length)) as string[]) : null;
  if (!parsed?.[0])
    throw new LaunchError(
      `${found} did not say where its ${family} binary is (it printed ${JSON.stringify(stdout.slice(0, 200))}). Give the interpreter's full path.`,
    );
  return { executable: parsed[0], prefix: parsed[1] ?? '', basePrefix: parsed[2] ?? '', version: parsed[3] ?? '' };
}

/** The folder an install puts bin/ in (…/versions/3.12.1/bin/python3 → …/versions/3.12.1), else the binary's folder. */
const installOf = (binary: string): string =>
  path.basename(path.dirname(binary)) === 'bin' ? path.dirname(path.dirname(binary)) : path.dirname(binary);

/** A prefix to show, or null: a system folder is shown already; one that may not be shown falls back to the binary's folder, then the binary. */
function shownPrefix(prefix: string, binary: string, rules: PathRules): string | null {
  if (isSystemPath(`${prefix}/`)) return null;
  for (const p of [prefix, path.dirname(binary), binary]) if (!refusal(p, rules)) return p;
  return null;
}

/**
 * The real interpreter behind `found` (a full path, from PATH or the command). A shim (a script, or a link to
 * a binary not named like the interpreter) is asked; anything else is followed through its links.
 */
export async function resolveInterpreter(
  found: string,
  family: Family,
  opts: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly rules: PathRules },
): Promise<Interpreter> {
  const real = realpathSync(found);
  const shim = shebangOf(real) !== null || familyOf(path.basename(real)) === null;
  if (shim) {
    const p = await probe(found, family, opts.cwd, opts.env);
    const executable = existsSync(p.executable) ? p.executable : found;
    const realExe = realpathSync(executable);
    if (shebangOf(realExe) !== null)
      throw new LaunchError(
        `${found} answered that it runs ${executable}, which is itself a script. Give the interpreter's full path.`,
      );
    const venv = family === 'python' && p.prefix && p.basePrefix && p.prefix !== p.basePrefix ? p.prefix : null;
    const base = family === 'python' && p.basePrefix ? p.basePrefix : installOf(realExe);
    const name = family === 'python' ? `Python ${p.version}` : `Node.js ${p.version}`;
    return {
      family,
      program: venv ? executable : realExe,
      prefix: shownPrefix(base, realExe, opts.rules),
      venv,
      via: `${found} is a version manager's shim: asked in ${opts.cwd}, it runs ${name} at ${realExe}, which runs directly inside the sandbox (the manager is not there).`,
    };
  }
  // A virtual environment's python: kept as written (it finds pyvenv.cfg beside its own path), its base shown too.
  const venvDir = path.dirname(path.dirname(found));
  const venv = family === 'python' && existsSync(path.join(venvDir, 'pyvenv.cfg')) ? venvDir : null;
  return {
    family,
    program: venv ? found : real,
    prefix: shownPrefix(installOf(real), real, opts.rules),
    venv,
    via: real !== found && !venv ? `${found} links to ${real}.` : null,
  };
}
