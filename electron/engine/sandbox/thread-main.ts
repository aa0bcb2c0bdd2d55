/**
 * The sandbox thread: runs one program at a time in a fresh QuickJS (quickjs-ng, WASM) runtime and context.
 * Tool calls block here (Atomics.wait) while the host runs the real, async tool, so tools are plain
 * synchronous functions inside the program — at top level, after an await, inside .then callbacks alike.
 * The host can always terminate this thread: a native operation that never reaches an interrupt check
 * (a pathological regular expression, say) still cannot outlive the time limit.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import ngModule from '@jitl/quickjs-ng-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';
import { PRELUDE, PRELUDE_FILE } from './prelude.js';
import {
  CONTROL_EXTRA_MS,
  CONTROL_PAUSED,
  CONTROL_REPLY,
  CONTROL_STOP,
  OUTPUT_BYTES,
  OUTPUT_DATA,
  OUTPUT_TRUNCATED,
  PROGRAM_FILE,
  STOP_CODES,
  wrapProgram,
  type CallKind,
  type RawError,
  type ReplyMessage,
  type RunRequest,
  type StopReason,
  type ThreadData,
  type ThreadOutcome,
} from './protocol.js';

const port = parentPort!;
// The package's types describe its CommonJS build; loaded as ESM, the default export is the variant itself.
const ngVariant = ('default' in ngModule ? ngModule.default : ngModule) as QuickJSSyncVariant;
const { control, replyPort } = workerData as ThreadData;
const ctl = new Int32Array(control);
/** How long past the deadline a blocked tool call waits for the host before giving up on its own. */
const CALL_GRACE_MS = 2000;

class Output {
  private readonly header: Int32Array;
  private readonly data: Uint8Array;
  private readonly encoder = new TextEncoder();
  private chars = 0;

  constructor(buffer: SharedArrayBuffer, private readonly cap: number) {
    this.header = new Int32Array(buffer, 0, 4);
    this.data = new Uint8Array(buffer, OUTPUT_DATA);
  }

  get truncated(): boolean {
    return this.header[OUTPUT_TRUNCATED] === 1;
  }

  /** Appends text up to the cap, then the marker once; returns how many characters may still be printed. */
  write(text: string): number {
    if (this.truncated) return 0;
    let piece = text;
    if (this.chars + text.length > this.cap) {
      piece =
        text.slice(0, this.cap - this.chars) +
        `\n[output truncated at ${this.cap} characters: print less — filter or summarise inside the program]\n`;
      Atomics.store(this.header, OUTPUT_TRUNCATED, 1);
    }
    this.chars += Math.min(text.length, this.cap - this.chars);
    const used = this.header[OUTPUT_BYTES];
    const { written } = this.encoder.encodeInto(piece, this.data.subarray(used));
    Atomics.store(this.header, OUTPUT_BYTES, used + written);
    return this.truncated ? 0 : this.cap - this.chars;
  }
}

function runOne(qjs: QuickJSWASMModule, req: RunRequest): ThreadOutcome {
  const output = new Output(req.output, req.limits.outputChars);
  let stop: StopReason | null = null;
  let calls = 0;
  let seq = 0;
  /** The deadline moves on by the time the host stopped the clock (waits for the user's approval). */
  const deadline = (): number => req.deadline + Atomics.load(ctl, CONTROL_EXTRA_MS);

  const rt: QuickJSRuntime = qjs.newRuntime();
  rt.setMemoryLimit(req.limits.memoryBytes);
  rt.setMaxStackSize(req.limits.stackBytes);
  rt.setInterruptHandler(() => {
    if (stop !== null) return true;
    const code = Atomics.load(ctl, CONTROL_STOP);
    if (code === STOP_CODES.cancel) stop = 'cancel';
    else if (code === STOP_CODES.time || Date.now() > deadline()) stop = 'time';
    return stop !== null;
  });
  const ctx: QuickJSContext = rt.newContext();
  const owned: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle): QuickJSHandle => (owned.push(h), h);

  const envelope = (ok: boolean, payload: string): QuickJSHandle => ctx.newString(ok ? payload : JSON.stringify({ ok: false, error: payload }));

  const hostCall = keep(
    ctx.newFunction('call', (kindH, nameH, argsH) => {
      const kind = ctx.getString(kindH) as CallKind;
      const name = ctx.getString(nameH);
      const args = ctx.getString(argsH);
      if (stop !== null) return envelope(false, 'the program is being stopped');
      calls += 1;
      if (calls > req.limits.maxCalls) {
        stop = 'tool-calls';
        return envelope(false, `tool-call limit of ${req.limits.maxCalls} calls per program reached`);
      }
      seq += 1;
      Atomics.store(ctl, CONTROL_REPLY, 0);
      port.postMessage({ type: 'call', id: req.id, seq, kind, name, args });
      for (;;) {
        // While the host waits for the user's approval the clock is stopped: wait on, checking now and then.
        const paused = Atomics.load(ctl, CONTROL_PAUSED) === 1;
        const left = paused ? 1000 : deadline() + CALL_GRACE_MS - Date.now();
        if (left <= 0) {
          stop = 'time';
          return envelope(false, 'time limit exceeded while waiting for the tool');
        }
        Atomics.wait(ctl, CONTROL_REPLY, 0, left);
        let received = receiveMessageOnPort(replyPort);
        while (received) {
          const reply = received.message as ReplyMessage;
          if (reply.seq === seq) {
            // The host answers an abandoned call (deadline, cancel) with an error: the program is stopping.
            const code = Atomics.load(ctl, CONTROL_STOP);
            if (code !== STOP_CODES.none) stop = code === STOP_CODES.cancel ? 'cancel' : 'time';
            return ctx.newString(reply.text);
          }
          received = receiveMessageOnPort(replyPort); // a late reply to an abandoned call
        }
        Atomics.store(ctl, CONTROL_REPLY, 0);
      }
    }),
  );
  // Once the program is being stopped, nothing more it prints counts.
  const hostWrite = keep(ctx.newFunction('write', (textH) => ctx.newNumber(stop === null ? output.write(ctx.getString(textH)) : 0)));

  let error: RawError | null = null;
  let unsettled = false;
  try {
    const prelude = keep(ctx.unwrapResult(ctx.evalCode(PRELUDE, PRELUDE_FILE)));
    const manifest = keep(ctx.newString(JSON.stringify(req.tools)));
    keep(ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined, hostCall, hostWrite, manifest)));

    const evaluated = ctx.evalCode(wrapProgram(req.code), PROGRAM_FILE);
    if (evaluated.error) {
      rt.setMemoryLimit(-1);
      error = readError(ctx, keep(evaluated.error));
    } else {
      const promise = keep(evaluated.value);
      // Jobs run until none is left; an interrupted job rejects its promise, which ends a microtask loop.
      while (rt.hasPendingJob() && stop === null) {
        const jobs = rt.executePendingJobs();
        if (jobs.error) {
          error ??= readError(ctx, jobs.error);
          jobs.error.dispose();
        }
      }
      // Reading the outcome must not fail for want of memory the program used up.
      rt.setMemoryLimit(-1);
      const state = ctx.getPromiseState(promise);
      if (state.type === 'rejected') error = readError(ctx, keep(state.error));
      else if (state.type === 'fulfilled') keep(state.value);
      else unsettled = stop === null;
    }
    if (stop === null && error?.name === 'InternalError' && error.message === 'out of memory') stop = 'memory';
  } catch (thrown) {
    // A host-side exception out of the WASM engine (its native stack overflowed, or it aborted): the module's
    // state can no longer be trusted, so the host replaces this thread.
    return { error, stop, unsettled: false, fatal: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown) };
  }
  try {
    for (const h of owned) if (h.alive) h.dispose();
    ctx.dispose();
    rt.dispose();
  } catch (thrown) {
    return { error, stop, unsettled, fatal: `cleanup failed: ${String(thrown)}` };
  }
  return { error, stop, unsettled, fatal: null };
}

/** Reads name/message/stack as plain strings; getters and toString are never run. */
function readError(ctx: QuickJSContext, h: QuickJSHandle): RawError {
  if (ctx.typeof(h) !== 'object') {
    return { name: 'Uncaught', message: primitiveText(ctx, h), stack: null, isError: false };
  }
  const field = (key: string): string | null => {
    try {
      const v = ctx.getProp(h, key);
      const s = ctx.typeof(v) === 'string' ? ctx.getString(v) : null;
      v.dispose();
      return s;
    } catch {
      return null;
    }
  };
  const message = field('message');
  const stack = field('stack');
  if (message === null && stack === null) {
    return { name: 'Uncaught', message: 'a non-Error object was thrown', stack: null, isError: false };
  }
  return { name: field('name') ?? 'Error', message: message ?? '', stack, isError: true };
}

function primitiveText(ctx: QuickJSContext, h: QuickJSHandle): string {
  const type = ctx.typeof(h);
  if (type === 'string') return JSON.stringify(ctx.getString(h).slice(0, 500));
  if (type === 'number') return String(ctx.getNumber(h));
  if (type === 'undefined') return 'undefined';
  return `a ${type} value`;
}

/**
 * QuickJS's own memory limit counts each allocation's size only when the C library can report it, which this
 * WASM build cannot: many large allocations slip through. The hard cap is therefore the WASM memory itself,
 * sized per limit: the engine's own footprint plus the program's allowance. Growing past it makes malloc fail,
 * which QuickJS reports as "out of memory".
 */
const ENGINE_BASE_BYTES = 8 * 1024 * 1024;
const PAGE = 64 * 1024;
/** Emscripten's initial memory for this build (16 MiB); the cap may not be lower. */
const INITIAL_PAGES = 256;

// The engine's tsconfig has no DOM lib, where the WebAssembly types live.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;

interface Engine {
  readonly qjs: QuickJSWASMModule;
  readonly memory: WasmMemory;
  readonly capBytes: number;
}

let engine: Engine | null = null;

async function engineFor(memoryBytes: number): Promise<Engine> {
  const capBytes = Math.max(ENGINE_BASE_BYTES + memoryBytes, INITIAL_PAGES * PAGE);
  if (engine && engine.capBytes === capBytes) return engine;
  const memory = new Memory({ initial: INITIAL_PAGES, maximum: Math.ceil(capBytes / PAGE) });
  const qjs = await newQuickJSWASMModuleFromVariant(newVariant(ngVariant, { wasmMemory: memory }));
  engine = { qjs, memory, capBytes };
  return engine;
}

/** True when the program's allocations have grown the WASM memory to (nearly) its cap. */
function memoryExhausted(e: Engine): boolean {
  return e.memory.buffer.byteLength + 2 * 1024 * 1024 >= e.capBytes;
}

async function main(): Promise<void> {
  try {
    await engineFor((workerData as ThreadData).memoryBytes);
  } catch (error) {
    port.postMessage({ type: 'failed', message: `could not load QuickJS: ${String(error)}` });
    return;
  }
  // Runs are sequential: the host sends the next only after this one's 'done'.
  port.on('message', (req: RunRequest) => {
    void engineFor(req.limits.memoryBytes).then(
      (e) => {
        let outcome = runOne(e.qjs, req);
        if (outcome.fatal && memoryExhausted(e)) outcome = { ...outcome, stop: 'memory' };
        port.postMessage({ type: 'done', id: req.id, outcome });
      },
      (error: unknown) => {
        const outcome: ThreadOutcome = { error: null, stop: null, unsettled: false, fatal: `could not load QuickJS: ${String(error)}` };
        port.postMessage({ type: 'done', id: req.id, outcome });
      },
    );
  });
  port.postMessage({ type: 'ready' });
}

void main();
