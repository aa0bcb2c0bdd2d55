/**
 * Pyodide loaded for Code Mode (Python): offline from the installed package (the .wasm and the standard
 * library zip ship in node_modules/pyodide), with an empty `js` namespace, no host folder mounted in its file
 * system, the tool bridge as a character device, and the prelude (py-prelude.ts) run once. Used by the
 * sandbox child (py-child-main.ts); it knows nothing of processes.
 */
import { loadPyodide, version as pyodideVersion, type PyodideAPI } from 'pyodide';
import { PY_PRELUDE } from './py-prelude.js';
import { pyodideDir } from './py-dir.js';
import { bootSnapshotName } from './py-snapshot-name.js';
import { loadFromSnapshot } from './py-snapshot-restore.js';

export interface PythonRuntime {
  /**
   * Runs one program in a fresh namespace, or with `keep` (codeState 'persist') in the one the previous kept
   * program left; returns the JSON outcome `{"error": …, "state": …}` the prelude writes (state: null unless kept).
   */
  run(code: string, manifestJson: string, keep?: boolean): string;
  /** Forgets the kept namespace (a limit stopped the program). */
  dropState(): void;
  /** Python raises KeyboardInterrupt when slot 0 of this buffer is set to 2 (SIGINT). */
  setInterruptBuffer(buffer: Int32Array): void;
  readonly pyodide: PyodideAPI;
  /** Whether it booted from the build's snapshot. */
  readonly fromSnapshot: boolean;
}

export interface RuntimeHooks {
  /** A tool or search_tools call from the program; blocks until the host answers with the reply envelope. */
  readonly onCall: (kind: string, name: string, args: string) => string;
  /** Printed text (stdout and stderr alike). */
  readonly onOutput: (text: string) => void;
}

const BRIDGE_PATH = '/dev/parallax-bridge';

export interface RuntimeOptions {
  /**
   * Called after the seal emptied every way to JavaScript and before the audit hook is installed: the one
   * moment the collector's lists can be read, so a test can check no JavaScript object is left among them
   * (given the type names of those left).
   */
  readonly beforeLock?: (jsObjectsInGc: string[]) => void;
  /** The file of a boot snapshot the build made (makeBootSnapshot); a plain boot when absent or not taken. */
  readonly snapshotFile?: string;
}

/**
 * The boot's options, one definition for the plain boot and the snapshot's: a snapshot restores the memory these
 * made, so both boots start from the same interpreter.
 */
function bootOptions() {
  return {
    indexURL: `${pyodideDir()}/`,
    // What `import js` would see: nothing (and the prelude removes the module anyway).
    jsglobals: {},
    env: { HOME: '/home/pyodide' },
    packages: [],
    checkAPIVersion: true,
  };
}

export const BOOT_SNAPSHOT_FILE = bootSnapshotName(pyodideVersion);

/**
 * Pyodide's memory right after a plain boot (before any device, prelude or program), for the build to store beside
 * the child: restoring it costs about a third of the CPU of booting (`npm run bench -- sandbox-python`).
 */
export async function makeBootSnapshot(): Promise<Uint8Array> {
  const pyodide = await loadPyodide({ ...bootOptions(), _makeSnapshot: true });
  return pyodide.makeMemorySnapshot();
}

/** Boots from the snapshot when one is given and Pyodide takes it (py-snapshot-restore.ts); else plainly. */
async function boot(snapshotFile: string | undefined): Promise<{ pyodide: PyodideAPI; fromSnapshot: boolean }> {
  if (snapshotFile) {
    try {
      return { pyodide: await loadFromSnapshot(snapshotFile, bootOptions()), fromSnapshot: true };
    } catch {
      // A damaged or foreign snapshot: the plain boot gives the same interpreter, only slower.
    }
  }
  return { pyodide: await loadPyodide(bootOptions()), fromSnapshot: false };
}

export async function loadPythonRuntime(hooks: RuntimeHooks, options: RuntimeOptions = {}): Promise<PythonRuntime> {
  const { pyodide, fromSnapshot } = await boot(options.snapshotFile);
  const decoder = new TextDecoder();
  const write = { write: (bytes: Uint8Array) => (hooks.onOutput(decoder.decode(bytes)), bytes.length) };
  pyodide.setStdout(write);
  pyodide.setStderr(write);

  // The bridge: Python writes one request, then reads the reply until EOF. The request never holds a
  // JavaScript object, and the reply is text the prelude parses into fresh Python values.
  let reply: Uint8Array | null = null;
  const FS = pyodide.FS;
  const device = FS.makedev(64, 0);
  FS.registerDevice(device, {
    open() {},
    close() {},
    write(_stream: unknown, buffer: Uint8Array, offset: number, length: number) {
      // A program can write to the device's descriptor itself: anything but the prelude's request is refused.
      let request: unknown;
      try {
        request = JSON.parse(decoder.decode(buffer.slice(offset, offset + length)));
      } catch {
        request = null;
      }
      const parts =
        Array.isArray(request) && request.length === 3 && request.every((part) => typeof part === 'string')
          ? (request as string[])
          : null;
      const valid = parts !== null && (parts[0] === 'tool' || parts[0] === 'search');
      const text = valid
        ? hooks.onCall(parts[0]!, parts[1]!, parts[2]!)
        : JSON.stringify({ ok: false, error: 'the tool bridge takes only calls made through the tool functions' });
      reply = new TextEncoder().encode(text);
      return length;
    },
    read(_stream: unknown, buffer: Uint8Array, offset: number, length: number) {
      if (!reply || reply.length === 0) {
        reply = null;
        return 0;
      }
      const n = Math.min(length, reply.length);
      buffer.set(reply.subarray(0, n), offset);
      reply = reply.subarray(n);
      return n;
    },
  });
  FS.mkdev(BRIDGE_PATH, 0o600, device);

  const scope = pyodide.globals.get('dict')();
  pyodide.runPython(PY_PRELUDE, { globals: scope, filename: '<parallax-prelude>' });
  const runFn = scope.get('_parallax_run') as (code: string, manifest: string, keep: boolean) => string;
  const dropFn = scope.get('_parallax_drop') as () => void;
  const seal = scope.get('_seal') as (() => void) & { destroy(): void };
  const lock = scope.get('_lock') as (() => void) & { destroy(): void };
  const jsInGc = scope.get('_js_in_gc') as (() => string) & { destroy(): void };
  scope.destroy();
  seal();
  seal.destroy();
  if (options.beforeLock) options.beforeLock(JSON.parse(jsInGc()) as string[]);
  jsInGc.destroy();
  lock();
  lock.destroy();
  return {
    run: (code, manifestJson, keep = false) => runFn(code, manifestJson, keep),
    dropState: () => dropFn(),
    setInterruptBuffer: (buffer) => pyodide.setInterruptBuffer(buffer),
    pyodide,
    fromSnapshot,
  };
}
