/**
 * How the Pyodide child is started: this process's own binary, as Node (Electron's with ELECTRON_RUN_AS_NODE),
 * with V8's code generation from strings disabled — a JavaScript object reached from Python cannot be turned into
 * code — under Node's permission model on every OS (reads only of the child's own files and Pyodide's, no writes,
 * no child processes, no addons, no WASI: a way out of Python into JavaScript still opens none of the user's
 * files), and, where bubblewrap
 * works (shell-sandbox.ts), in the same OS sandbox as run_shell: no network, no other processes, a cleared
 * environment, the system folders and Parallax's own code read-only, no home folder and no workspace. Node's
 * permission model has no network rule, so without bubblewrap the network is walled off apart: an empty network
 * namespace by unshare on Linux, a Seatbelt profile on macOS; only where neither works (Windows, a container
 * that forbids namespaces) does a full escape reach the network, and the launch says so (`containment`). The
 * child needs no file of the user: tools run in the worker, on the far side of its pipes.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bubblewrapArgs, shellSandbox, UNSHARE_ARGS, type ShellSandboxInfo } from '../shell-sandbox.js';
import { appLayout, type AppLayout } from '../../app-layout.js';
import { devChildBundle } from './py-dev-bundle.js';
import { within } from './py-permission-check.js';
import { pyodideDir } from './py-dir.js';

export type PyContainment = 'bubblewrap' | 'netns' | 'seatbelt' | 'process';

/**
 * The macOS wall of the child: everything Node's permission model allows, and no network of any kind. Files
 * stay Node's to refuse (a Seatbelt read list would have to know where the app and Node were installed).
 */
export const PY_SEATBELT_PROFILE = '(version 1)\n(allow default)\n(deny network*)\n';

export interface PyLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /**
   * What contains the child beside Node's permission model: 'bubblewrap'; 'netns' (Linux without bubblewrap:
   * an empty network namespace of its own, by unshare); 'seatbelt' (macOS: a profile that denies the network);
   * or 'process' (its own process, env cleared, no OS wall: a full escape reaches the network).
   */
  readonly containment: PyContainment;
}

/**
 * A file inside the desktop app's app.asar, as the copy electron-builder unpacks beside it (asarUnpack): Node
 * outside Electron cannot read the archive.
 */
export function unpacked(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/**
 * The child's entry: the bundle's python-child.js (in the repository's dist/worker or the desktop app's
 * app.asar.unpacked/dist/worker), tsc's py-child-main.js, or, from source, the child bundled by the host
 * (py-dev-bundle.ts: tsx would need a process to compile, which the child may not start).
 */
export function childEntry(layout: AppLayout = appLayout()): { file: string; nodeArgs: string[] } {
  if (layout.bundled) return { file: path.join(layout.workerDir, 'python-child.js'), nodeArgs: [] };
  if (layout.kind !== 'source')
    return { file: fileURLToPath(new URL('./py-child-main.js', import.meta.url)), nodeArgs: [] };
  return { file: devChildBundle(), nodeArgs: [] };
}

/** One read-only bind: `source` (a real path) shown inside the sandbox at `target`. */
export interface Bind {
  readonly source: string;
  readonly target: string;
}

/**
 * What the child must read, and nothing more. The bundled child (both built layouts): its own folder
 * (dist/worker: the entry, its chunks, the package.json that makes them ES modules), Pyodide at the path
 * Node's resolver walks from there, and the runtime binary's folder. tsc's output and the sources (tests and
 * development only) need the repository's code and node_modules (tsx and its loaders) as well.
 */
export function childBinds(
  layout: AppLayout = appLayout(),
  runtime: string = process.execPath,
  entry: string = childEntry(layout).file,
): Bind[] {
  const binds: Bind[] = [];
  // `asLookedUp`: shown where Node's resolver looks for it; else at its real path, so links to it resolve.
  const add = (target: string, asLookedUp = false): void => {
    try {
      const source = realpathSync(target);
      binds.push({ source, target: asLookedUp ? target : source });
    } catch {
      /* absent: nothing to show */
    }
  };
  add(path.dirname(runtime));
  if (layout.bundled) {
    add(layout.workerDir, true);
    add(path.join(layout.nodeModules, 'pyodide'), true);
  } else {
    add(layout.unpackedRoot);
    add(layout.nodeModules);
    // From source the child is a bundle of its own in a temp folder (py-dev-bundle.ts).
    add(path.dirname(entry), true);
  }
  // System folders are bound by bubblewrapArgs already; a folder inside another bind adds nothing.
  const system = ['/usr/', '/bin/', '/lib/', '/etc/', '/opt/'];
  return binds
    .filter((b) => !system.some((s) => `${b.target}/`.startsWith(s)))
    .sort((a, b) => a.target.length - b.target.length)
    .filter(
      (b, i, all) =>
        !all
          .slice(0, i)
          .some((shorter) => `${b.target}/`.startsWith(`${shorter.target}/`) && b.source.startsWith(shorter.source)),
    );
}

/** The folders shown to the child (their paths inside the sandbox). */
export function readOnlyRoots(layout: AppLayout = appLayout()): string[] {
  return childBinds(layout).map((b) => b.target);
}

/** Node.js the child's bundle runs on (esbuild's target and package.json's engines). */
export const CHILD_NODE = { major: 20, minor: 19 };

/** A clear refusal when `version` (process.versions.node of the runtime) is older than the child needs. */
export function checkChildNode(version: string): void {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > CHILD_NODE.major || (major === CHILD_NODE.major && minor >= CHILD_NODE.minor)) return;
  throw new Error(
    `Code Mode (Python) needs Node.js ${CHILD_NODE.major}.${CHILD_NODE.minor} or later for its sandbox, and this is Node.js ${version}. ` +
      'Install a newer Node.js (https://nodejs.org) and start parallax with it, or use the desktop app, which brings its own.',
  );
}

/** What runs the child: the runtime binary and whether it is Electron, which then runs as Node. */
export interface ChildRuntime {
  readonly command: string;
  readonly electronAsNode: boolean;
}

/**
 * The binary for the child: always this process's own. Under Node (CLI, web host) that is Node itself. In
 * the desktop app it is Electron's (the worker is a utility process), run as plain Node with
 * ELECTRON_RUN_AS_NODE — electron-builder.yml leaves the runAsNode fuse on for exactly this, so the app needs
 * no Node.js on the machine and the child gets the Node version the app was tested with. Nothing on PATH is
 * looked at.
 */
export function childRuntime(proc: { execPath: string; versions: NodeJS.ProcessVersions } = process): ChildRuntime {
  checkChildNode(proc.versions.node);
  return { command: proc.execPath, electronAsNode: typeof proc.versions.electron === 'string' };
}

// Symlinks kept as found: Node then never lstat()s the folders above a linked node_modules, so the reads
// allowed below are the child's whole need.
const NODE_FLAGS = [
  '--disallow-code-generation-from-strings',
  '--no-warnings',
  '--preserve-symlinks',
  '--preserve-symlinks-main',
];
const TMP_BYTES = 16 * 1024 * 1024;

/**
 * Node's permission model for the child: the switch (`--experimental-permission` before Node 22.13 and 23.5,
 * `--permission` from then on), one `--allow-fs-read` per folder, and worker threads (its stop-word and
 * memory helper is one; they live under the same permissions). Nothing else: no writes, no child processes,
 * no addons, no WASI. Node older than 20 has no permission model, and the child is not started on it.
 */
export function permissionArgs(version: string, reads: readonly string[]): string[] {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (!(major >= 20)) {
    throw new Error(
      `Code Mode (Python) needs Node.js 20 or later for its sandbox (found ${version || 'an unknown version'}). Install a newer Node.js.`,
    );
  }
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return [
    stable ? '--permission' : '--experimental-permission',
    ...reads.map((r) => `--allow-fs-read=${r}`),
    '--allow-worker',
  ];
}

/**
 * What the child may read under the permission model: its own folder (the bundle, or tsc's python/ folder)
 * and Pyodide's, as the child names them (through links, see --preserve-symlinks) and, where not reached
 * through a folder already allowed, as they really are. As few folders as that, none inside another: Node
 * 20's permission tree lets a program list a folder above its allowed ones when their paths branch there
 * (three folders under `/` made `/` listable), so fewer and flatter entries give its fault less to act on,
 * and the child checks at start that it holds (py-permission-check.ts).
 */
export function childReads(entry: string): string[] {
  const looked = [path.dirname(entry)];
  let found = false;
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const linked = path.join(dir, 'node_modules', 'pyodide');
    if (existsSync(linked)) {
      looked.push(linked);
      found = true;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  if (!found) looked.push(pyodideDir());
  const reads = outermost(looked.filter((r) => existsSync(r)));
  for (const r of [...reads]) {
    const real = realpathSync(r);
    if (!within(real, reads)) reads.push(real);
  }
  return outermost(reads).sort();
}

/** The folders none of the others contains. */
function outermost(folders: readonly string[]): string[] {
  const unique = [...new Set(folders)];
  return unique.filter(
    (f) =>
      !within(
        f,
        unique.filter((g) => g !== f),
      ),
  );
}

/** Seams for tests: another layout (the packaged one), another process (Electron's), no bubblewrap. */
export interface PythonLaunchOptions {
  readonly layout?: AppLayout;
  readonly proc?: { execPath: string; versions: NodeJS.ProcessVersions };
  /** What contains the child beside Node's own walls; default what this process found (shellSandbox). */
  readonly sandbox?: ShellSandboxInfo;
}

export function pythonLaunch(options: PythonLaunchOptions = {}): PyLaunch {
  const layout = options.layout ?? appLayout();
  const proc = options.proc ?? process;
  const { file, nodeArgs } = childEntry(layout);
  const node = childRuntime(proc).command;
  const nodeArgv = [...NODE_FLAGS, ...permissionArgs(proc.versions.node, childReads(file)), ...nodeArgs, file];
  const env = { ELECTRON_RUN_AS_NODE: '1' };
  const sandbox = options.sandbox ?? shellSandbox();
  if (sandbox.kind === 'seatbelt' && sandbox.sandboxExec) {
    return {
      command: sandbox.sandboxExec,
      args: ['-p', PY_SEATBELT_PROFILE, node, ...nodeArgv],
      env,
      containment: 'seatbelt',
    };
  }
  if (sandbox.kind !== 'bubblewrap' || !sandbox.bwrap) {
    if (sandbox.unshare)
      return { command: sandbox.unshare, args: [...UNSHARE_ARGS, '--', node, ...nodeArgv], env, containment: 'netns' };
    return { command: node, args: nodeArgv, env, containment: 'process' };
  }
  const args = bubblewrapArgs({ workspace: null, tmpBytes: TMP_BYTES, disableUserns: sandbox.disableUserns ?? false });
  const binds = childBinds(layout, node, file).flatMap((b) => ['--ro-bind', b.source, b.target]);
  args.splice(args.lastIndexOf('--remount-ro'), 0, ...binds); // before the root is made read-only, after /tmp
  args.push('--setenv', 'ELECTRON_RUN_AS_NODE', '1', '--chdir', '/tmp', '--', node, ...nodeArgv);
  return { command: sandbox.bwrap, args, env: {}, containment: 'bubblewrap' };
}
