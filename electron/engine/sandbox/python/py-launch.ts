/**
 * How the Pyodide child is started: Node (or Electron as Node) with V8's code generation from strings
 * disabled — a JavaScript object reached from Python cannot be turned into code — under Node's permission
 * model on every OS (reads only of the child's own files and Pyodide's, no writes, no child processes, no
 * addons, no WASI: a way out of Python into JavaScript still opens none of the user's files), and, where bubblewrap
 * works (shell-sandbox.ts), in the same OS sandbox as run_shell: no network, no other processes, a cleared
 * environment, the system folders and Parallax's own code read-only, no home folder and no workspace. The
 * child needs no file of the user: tools run in the worker, on the far side of its pipes.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bubblewrapArgs, shellSandbox, type ShellSandboxInfo } from '../shell-sandbox.js';
import { devChildBundle } from './py-dev-bundle.js';
import { pyodideDir } from './py-runtime.js';

declare const PARALLAX_BUNDLED: boolean | undefined;

export interface PyLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** What contains the child: 'bubblewrap', or 'process' (its own process, env cleared, no OS sandbox). */
  readonly containment: 'bubblewrap' | 'process';
}

/**
 * A file inside the desktop app's app.asar, as the copy electron-builder unpacks beside it (asarUnpack): Node
 * outside Electron cannot read the archive.
 */
export function unpacked(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/**
 * The child's entry: the bundle's python-child.js, tsc's py-child-main.js, or, from source, the child bundled
 * by the host (py-dev-bundle.ts: tsx would need a process to compile, which the child may not start).
 */
export function childEntry(): { file: string; nodeArgs: string[] } {
  const here = import.meta.url;
  if (typeof PARALLAX_BUNDLED !== 'undefined' && PARALLAX_BUNDLED) return { file: unpacked(fileURLToPath(new URL('./python-child.js', here))), nodeArgs: [] };
  if (!here.endsWith('.ts')) return { file: fileURLToPath(new URL('./py-child-main.js', here)), nodeArgs: [] };
  return { file: devChildBundle(), nodeArgs: [] };
}

/** The folder of Parallax's package.json above the entry (Node reads it to load the entry as ESM). */
function appRoot(entry: string): string {
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** Folders the child must read: Node itself, Parallax's code, and node_modules (where Pyodide lives). */
export function readOnlyRoots(entry: string): string[] {
  const roots = new Set<string>();
  const add = (p: string): void => {
    try {
      roots.add(realpathSync(p));
    } catch {
      /* absent: nothing to show */
    }
  };
  add(path.dirname(process.execPath));
  add(path.dirname(nodeBinary()));
  add(appRoot(entry));
  // node_modules, which may be a link to another folder.
  add(path.dirname(pyodideDir()));
  const system = ['/usr/', '/bin/', '/lib/', '/etc/', '/opt/'];
  return [...roots].filter((r) => !system.some((s) => `${r}/`.startsWith(s))).sort((a, b) => a.length - b.length)
    .filter((r, i, all) => !all.slice(0, i).some((shorter) => `${r}/`.startsWith(`${shorter}/`)));
}

/**
 * The Node binary for the child. Under Node (the CLI, the web host) the worker's own. Under Electron the desktop
 * build cannot run its binary as Node (its runAsNode fuse is off: that would start a second app), so a Node.js
 * installed on the machine runs the child; without one, Code Mode (Python) says so.
 */
function nodeBinary(): string {
  if (!process.versions.electron) return process.execPath;
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/bin', '/usr/bin', '/opt/homebrew/bin'].filter((d) => path.isAbsolute(d));
  for (const dir of dirs) {
    const candidate = path.join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  throw new Error(
    'Code Mode (Python) runs its sandbox with Node.js, and none was found on this machine (the desktop app cannot run itself as Node). ' +
      'Install Node.js 20 or later, or run the comparison with the parallax CLI.',
  );
}

// Symlinks kept as found: Node then never lstat()s the folders above a linked node_modules, so the reads
// allowed below are the child's whole need.
const NODE_FLAGS = ['--disallow-code-generation-from-strings', '--no-warnings', '--preserve-symlinks', '--preserve-symlinks-main'];
const TMP_BYTES = 16 * 1024 * 1024;

const versions = new Map<string, string>();
/** The version of the Node that runs the child ('v20.20.2'): this process's, or asked of the binary once. */
function nodeVersion(node: string): string {
  if (node === process.execPath && !process.versions.electron) return process.version;
  let version = versions.get(node);
  if (!version) {
    version = spawnSync(node, ['--version'], { env: {}, encoding: 'utf8', timeout: 10_000 }).stdout?.trim() ?? '';
    versions.set(node, version);
  }
  return version;
}

/**
 * Node's permission model for the child: the switch (`--experimental-permission` before Node 22.13 and 23.5,
 * `--permission` from then on), one `--allow-fs-read` per folder, and worker threads (its stop-word and
 * memory helper is one; they live under the same permissions). Nothing else: no writes, no child processes,
 * no addons, no WASI. Node older than 20 has no permission model, and the child is not started on it.
 */
export function permissionArgs(version: string, reads: readonly string[]): string[] {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (!(major >= 20)) {
    throw new Error(`Code Mode (Python) needs Node.js 20 or later for its sandbox (found ${version || 'an unknown version'}). Install a newer Node.js.`);
  }
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return [stable ? '--permission' : '--experimental-permission', ...reads.map((r) => `--allow-fs-read=${r}`), '--allow-worker'];
}

/**
 * What the child may read under the permission model: its own folder (the bundle, or tsc's python/ folder)
 * and Pyodide's, both as the child names them (through links, see --preserve-symlinks) and as they really are.
 */
export function childReads(entry: string): string[] {
  const reads = new Set<string>([path.dirname(entry)]);
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const linked = path.join(dir, 'node_modules', 'pyodide');
    if (existsSync(linked)) {
      reads.add(linked);
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  reads.add(pyodideDir());
  for (const r of [...reads]) {
    try {
      reads.add(realpathSync(r));
    } catch {
      reads.delete(r);
    }
  }
  return [...reads].sort();
}

/** `sandbox`: what contains the child beside Node's own walls; default what this process found (shellSandbox). */
export function pythonLaunch(sandbox: ShellSandboxInfo = shellSandbox()): PyLaunch {
  const { file, nodeArgs } = childEntry();
  const node = nodeBinary();
  const nodeArgv = [...NODE_FLAGS, ...permissionArgs(nodeVersion(node), childReads(file)), ...nodeArgs, file];
  const env = { ELECTRON_RUN_AS_NODE: '1' };
  if (sandbox.kind !== 'bubblewrap' || !sandbox.bwrap) {
    return { command: node, args: nodeArgv, env, containment: 'process' };
  }
  const args = bubblewrapArgs({ workspace: null, tmpBytes: TMP_BYTES, disableUserns: sandbox.disableUserns ?? false });
  const binds = readOnlyRoots(file).flatMap((root) => ['--ro-bind', root, root]);
  args.splice(args.indexOf('--remount-ro'), 0, ...binds);
  args.push('--setenv', 'ELECTRON_RUN_AS_NODE', '1', '--chdir', '/tmp', '--', node, ...nodeArgv);
  return { command: sandbox.bwrap, args, env: {}, containment: 'bubblewrap' };
}
