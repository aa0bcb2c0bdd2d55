/**
 * The Pyodide child process: loads Python once (py-runtime.ts), says `ready` with what the load cost, then
 * runs one program per `run` message. Everything here is synchronous on the main thread: a tool call writes a
 * `call` line and blocks reading stdin until the host's `reply`, so tools are plain functions in Python. A
 * helper thread reads stop words from fd 3 and watches the resident size against the run's memory cap; both
 * stop the program through Pyodide's interrupt buffer (KeyboardInterrupt), re-armed every few ms in case the
 * program catches it. The host kills the whole process when that is not enough.
 *
 * Started by the host with V8's code generation from strings disabled and, where bubblewrap works, inside the
 * same kind of OS sandbox as run_shell (py-launch.ts): what a way out of Python would reach is little.
 */
import { constants, existsSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  PY_INTERRUPT,
  PY_MEMORY_CAP_MB,
  PY_RUN_ID,
  PY_SLOTS,
  PY_STOP,
  PY_STOP_CODES,
  PY_STOP_NAMES,
  type ChildToHost,
  type HostToChild,
  type PyRunMessage,
} from './py-protocol.js';
import { permissionFault } from './py-permission-check.js';
import { BOOT_SNAPSHOT_FILE, loadPythonRuntime, makeBootSnapshot } from './py-runtime.js';
import type { KeptState, RawError } from '../protocol.js';

const control = new Int32Array(new SharedArrayBuffer(PY_SLOTS * 4));
const nap = new Int32Array(new SharedArrayBuffer(4));

function send(message: ChildToHost): void {
  const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(nap, 0, 0, 2);
    }
  }
}

let pending = '';
const chunk = Buffer.alloc(1 << 16);
/** The next line from the host, blocking; null when the host closed the pipe. */
function readLine(): string | null {
  for (;;) {
    const newline = pending.indexOf('\n');
    if (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      return line;
    }
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(nap, 0, 0, 2);
        continue;
      }
      if (code === 'EOF') return null;
      throw error;
    }
    if (n === 0) return null;
    pending += chunk.toString('utf8', 0, n);
  }
}

// The helper thread: stop words from fd 3, and the memory watch (resident size is per process).
const HELPER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const c = new Int32Array(workerData.control);
const [INTERRUPT, STOP, CAP, TIME, CANCEL, MEMORY, RUN] = workerData.slots;
const HARD_MB = 32;
const stop = (code) => { Atomics.compareExchange(c, STOP, 0, code); Atomics.store(c, INTERRUPT, 2); };
let text = '';
fs.createReadStream(null, { fd: 3 }).on('data', (b) => {
  text += b.toString();
  let i;
  while ((i = text.indexOf('\\n')) >= 0) {
    const [word, id] = text.slice(0, i).split(' '); text = text.slice(i + 1);
    if (Atomics.load(c, CAP) > 0 && Number(id) === Atomics.load(c, RUN)) stop(word === 'cancel' ? CANCEL : TIME);
  }
}).on('error', () => {}).on('end', () => process.kill(process.pid, 'SIGKILL')); // the worker is gone: so is its program
setInterval(() => {
  const cap = Atomics.load(c, CAP);
  if (cap === 0) return;
  const rss = process.memoryUsage.rss();
  if (rss > cap * 1048576) stop(MEMORY);
  // A single allocation can grow far past the cap before Python checks the buffer: past the cap by HARD_MB the
  // process ends itself at once (the host reads the memory stop it was told first), so it never holds much more.
  if (rss > (cap + HARD_MB) * 1048576) { fs.writeSync(1, JSON.stringify({ type: 'stop', id: workerData.id, reason: 'memory' }) + '\\n'); process.kill(process.pid, 'SIGKILL'); }
  // A program that catches KeyboardInterrupt is interrupted again.
  if (Atomics.load(c, STOP) !== 0 && Atomics.load(c, INTERRUPT) === 0 && Atomics.load(c, CAP) > 0) Atomics.store(c, INTERRUPT, 2);
}, 5).unref();
`;

/** The build's boot snapshot beside this file (build/bundle-worker.mjs), if there is one this process may read. */
function bootSnapshotFile(): string | undefined {
  const file = fileURLToPath(new URL(`./${BOOT_SNAPSHOT_FILE}`, import.meta.url));
  return existsSync(file) ? file : undefined; // tsc's output and the sources have none: a plain boot
}

async function main(): Promise<void> {
  // The build's step, never the host's: `python-child.js --make-boot-snapshot <dir>` writes the snapshot and exits.
  if (process.argv[2] === '--make-boot-snapshot' && process.argv[3]) {
    writeFileSync(join(process.argv[3], BOOT_SNAPSHOT_FILE), await makeBootSnapshot());
    return;
  }
  const started = performance.now();
  let run: PyRunMessage | null = null;
  let seq = 0;
  let calls = 0;
  let chars = 0;
  let truncated = false;

  const onOutput = (text: string): void => {
    if (!run || truncated || Atomics.load(control, PY_STOP) !== 0) return;
    let piece = text;
    if (chars + text.length > run.outputChars) {
      piece = `${text.slice(0, run.outputChars - chars)}\n[output truncated at ${run.outputChars} characters: print less — filter or summarise inside the program]\n`;
      truncated = true;
    }
    chars += Math.min(text.length, run.outputChars - chars);
    send({ type: 'out', id: run.id, text: piece, truncated });
  };

  const onCall = (kind: string, name: string, args: string): string => {
    const refuse = (error: string): string => JSON.stringify({ ok: false, error });
    if (!run) return refuse('no program is running');
    if (Atomics.load(control, PY_STOP) !== 0) return refuse('the program is being stopped');
    calls += 1;
    if (calls > run.maxCalls) {
      Atomics.compareExchange(control, PY_STOP, 0, PY_STOP_CODES['tool-calls']);
      Atomics.store(control, PY_INTERRUPT, 2);
      return refuse(`tool-call limit of ${run.maxCalls} calls per program reached`);
    }
    seq += 1;
    send({ type: 'call', id: run.id, seq, kind: kind === 'search' ? 'search' : 'tool', name, args });
    for (;;) {
      const line = readLine();
      if (line === null) process.exit(0);
      const message = JSON.parse(line) as HostToChild;
      if (message.type === 'reply' && message.seq === seq) {
        // The host abandoned the call to stop the program: stop here too, before the helper hears of it.
        if (message.stop) {
          Atomics.compareExchange(control, PY_STOP, 0, PY_STOP_CODES[message.stop]);
          Atomics.store(control, PY_INTERRUPT, 2);
        }
        return message.text;
      }
    }
  };

  // Under the permission model process.binding() throws; Pyodide's NODEFS asks it only for the fs constants.
  const node = process as unknown as { permission?: unknown; binding: (name: string) => unknown };
  if (node.permission) {
    const binding = node.binding.bind(process);
    Object.defineProperty(process, 'binding', {
      configurable: true,
      writable: true,
      value: (name: string) => (name === 'constants' ? { fs: constants, os: osConstants } : binding(name)),
    });
  }
  const fault = node.permission ? permissionFault(process.execArgv, process.version) : null;
  if (fault) {
    send({ type: 'failed', message: fault });
    process.exit(1);
  }
  // One allocation grows the heap in one call (emscripten's resize goes through Memory.prototype.grow): a growth that
  // would take the process past the run's cap is refused there, so Python raises MemoryError before the pages exist
  // and the program stops as over its memory limit. The watch thread alone would see it only after its next tick,
  // which on a loaded machine comes late.
  // (Node's types here leave WebAssembly.Memory out: it is reached through globalThis.)
  type WasmMemory = { grow(this: WasmMemory, delta: number): number };
  const memory = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly.Memory
    .prototype;
  const grow = memory.grow;
  memory.grow = function (this: WasmMemory, delta: number): number {
    const cap = Atomics.load(control, PY_MEMORY_CAP_MB);
    if (cap > 0 && process.memoryUsage.rss() + delta * 65536 > cap * 1048576) {
      Atomics.compareExchange(control, PY_STOP, 0, PY_STOP_CODES.memory);
      Atomics.store(control, PY_INTERRUPT, 2);
      throw new RangeError("the program's memory limit");
    }
    return grow.call(this, delta);
  };
  let runtime;
  try {
    runtime = await loadPythonRuntime({ onCall, onOutput }, { snapshotFile: bootSnapshotFile() });
  } catch (error) {
    send({
      type: 'failed',
      message: `could not load Pyodide: ${error instanceof Error ? error.message : String(error)}`,
    });
    process.exit(1);
  }
  runtime.setInterruptBuffer(control);
  const slots = [
    PY_INTERRUPT,
    PY_STOP,
    PY_MEMORY_CAP_MB,
    PY_STOP_CODES.time,
    PY_STOP_CODES.cancel,
    PY_STOP_CODES.memory,
    PY_RUN_ID,
  ];
  const helper = new Worker(HELPER, { eval: true, workerData: { control: control.buffer, slots, id: 0 } });
  helper.unref();
  send({
    type: 'ready',
    loadMs: performance.now() - started,
    rssBytes: process.memoryUsage.rss(),
    fromSnapshot: runtime.fromSnapshot,
  });

  for (;;) {
    const line = readLine();
    if (line === null) process.exit(0);
    const message = JSON.parse(line) as HostToChild;
    if (message.type !== 'run') continue;
    run = message;
    seq = 0;
    calls = 0;
    chars = 0;
    truncated = false;
    Atomics.store(control, PY_STOP, 0);
    Atomics.store(control, PY_INTERRUPT, 0);
    Atomics.store(control, PY_RUN_ID, message.id);
    // The memory cap: what the process holds now plus the program's allowance.
    Atomics.store(control, PY_MEMORY_CAP_MB, Math.ceil((process.memoryUsage.rss() + message.memoryBytes) / 1048576));
    let error: RawError | null = null;
    let fatal: string | null = null;
    let state: KeptState['variables'] | null = null;
    try {
      const outcome = JSON.parse(
        runtime.run(message.code, JSON.stringify(message.tools), message.keepState === true),
      ) as { error: RawError | null; state?: KeptState['variables'] | null };
      error = outcome.error;
      state = outcome.state ?? null;
    } catch (thrown) {
      // A stop landing outside the program (in the prelude's own code after it) is no failure.
      if (Atomics.load(control, PY_STOP) !== 0 && thrown instanceof Error && /KeyboardInterrupt/.test(thrown.message)) {
        error = null;
      } else
        // Pyodide itself failed (its stack overflowed, or it aborted): this process cannot be trusted again.
        fatal =
          thrown instanceof Error
            ? `${thrown.name}: ${thrown.message.split('\n').filter(Boolean).pop() ?? ''}`
            : String(thrown);
    }
    Atomics.store(control, PY_MEMORY_CAP_MB, 0);
    const stop = PY_STOP_NAMES[Atomics.load(control, PY_STOP)] ?? null;
    Atomics.store(control, PY_INTERRUPT, 0);
    if (stop && error?.name === 'KeyboardInterrupt') error = null;
    // A limit that stopped the program takes the kept namespace with it, as in the JavaScript sandbox.
    if (message.keepState && (stop || fatal || error?.name === 'MemoryError')) {
      state = null;
      try {
        runtime.dropState();
      } catch {
        // The process ends below anyway when Pyodide broke.
      }
    }
    const kept = message.keepState
      ? { state: state ? { variables: state, memoryBytes: process.memoryUsage.rss() } : null }
      : {};
    if (!stop && error?.name === 'MemoryError') {
      send({ type: 'done', id: message.id, error: null, stop: 'memory', fatal: null, ...kept });
    } else {
      send({ type: 'done', id: message.id, error, stop, fatal, ...kept });
    }
    run = null;
    if (fatal || stop === 'memory') process.exit(0);
  }
}

void main();
