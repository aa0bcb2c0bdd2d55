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
import { declaredNames, probeState } from './kept-state.js';
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
  scriptProgram,
  wrapProgram,
  type KeptState,
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

  constructor(
    buffer: SharedArrayBuffer,
    private readonly cap: number,
  ) {
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

/** One program's run on a context: its request, output, stop reason and call count. */
interface RunState {
  readonly req: RunRequest;
  readonly output: Output;
  stop: StopReason | null;
  calls: number;
  seq: number;
  /** While the thread reads a kept context's variables after the program: its own short deadline. */
  probeUntil: number | null;
}

/**
 * A QuickJS runtime and context with the prelude installed. The host functions read the run in progress, so a
 * kept context (codeState 'persist') serves the next program, and tool handles stored in its variables still work.
 */
interface Live {
  readonly rt: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  readonly owned: QuickJSHandle[];
  run: RunState | null;
  /** Global names after the prelude: anything else on globalThis came from a program. */
  baseline: ReadonlySet<string>;
  /** Names the programs declared (read from their text), probed after each program. */
  readonly declared: Set<string>;
}

/** The context kept for the next program (codeState 'persist'); null when none is. */
let kept: Live | null = null;

function openLive(qjs: QuickJSWASMModule, req: RunRequest): Live {
  const rt: QuickJSRuntime = qjs.newRuntime();
  rt.setMaxStackSize(req.limits.stackBytes);
  const ctx: QuickJSContext = rt.newContext();
  const live: Live = { rt, ctx, owned: [], run: null, baseline: new Set(), declared: new Set() };
  const keep = (h: QuickJSHandle): QuickJSHandle => (live.owned.push(h), h);
  /** The deadline moves on by the time the host stopped the clock (waits for the user's approval). */
  const deadline = (run: RunState): number => run.req.deadline + Atomics.load(ctl, CONTROL_EXTRA_MS);
  rt.setInterruptHandler(() => {
    const run = live.run;
    if (!run) return false;
    if (run.probeUntil !== null) return Date.now() > run.probeUntil;
    if (run.stop !== null) return true;
    const code = Atomics.load(ctl, CONTROL_STOP);
    if (code === STOP_CODES.cancel) run.stop = 'cancel';
    else if (code === STOP_CODES.time || Date.now() > deadline(run)) run.stop = 'time';
    return run.stop !== null;
  });

  const envelope = (ok: boolean, payload: string): QuickJSHandle =>
    ctx.newString(ok ? payload : JSON.stringify({ ok: false, error: payload }));

  const hostCall = keep(
    ctx.newFunction('call', (kindH, nameH, argsH) => {
      const run = live.run;
      const kind = ctx.getString(kindH) as CallKind;
      const name = ctx.getString(nameH);
      const args = ctx.getString(argsH);
      if (!run || run.stop !== null || run.probeUntil !== null) return envelope(false, 'the program is being stopped');
      run.calls += 1;
      if (run.calls > run.req.limits.maxCalls) {
        run.stop = 'tool-calls';
        return envelope(false, `tool-call limit of ${run.req.limits.maxCalls} calls per program reached`);
      }
      run.seq += 1;
      const seq = run.seq;
      Atomics.store(ctl, CONTROL_REPLY, 0);
      port.postMessage({ type: 'call', id: run.req.id, seq, kind, name, args });
      for (;;) {
        // While the host waits for the user's approval the clock is stopped: wait on, checking now and then.
        const paused = Atomics.load(ctl, CONTROL_PAUSED) === 1;
        const left = paused ? 1000 : deadline(run) + CALL_GRACE_MS - Date.now();
        if (left <= 0) {
          run.stop = 'time';
          return envelope(false, 'time limit exceeded while waiting for the tool');
        }
        Atomics.wait(ctl, CONTROL_REPLY, 0, left);
        let received = receiveMessageOnPort(replyPort);
        while (received) {
          const reply = received.message as ReplyMessage;
          if (reply.seq === seq) {
            // The host answers an abandoned call (deadline, cancel) with an error: the program is stopping.
            const code = Atomics.load(ctl, CONTROL_STOP);
            if (code !== STOP_CODES.none) run.stop = code === STOP_CODES.cancel ? 'cancel' : 'time';
            return ctx.newString(reply.text);
          }
          received = receiveMessageOnPort(replyPort); // a late reply to an abandoned call
        }
        Atomics.store(ctl, CONTROL_REPLY, 0);
      }
    }),
  );
  // Once the program is being stopped, nothing more it prints counts.
  const hostWrite = keep(
    ctx.newFunction('write', (textH) => {
      const run = live.run;
      return ctx.newNumber(
        run && run.stop === null && run.probeUntil === null ? run.output.write(ctx.getString(textH)) : 0,
      );
    }),
  );
  const prelude = keep(ctx.unwrapResult(ctx.evalCode(PRELUDE, PRELUDE_FILE)));
  const manifest = keep(ctx.newString(JSON.stringify(req.tools)));
  keep(ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined, hostCall, hostWrite, manifest)));
  if (req.keepState)
    live.baseline = new Set(
      JSON.parse(
        ctx.getString(keep(ctx.unwrapResult(ctx.evalCode('JSON.stringify(Object.getOwnPropertyNames(globalThis))')))),
      ) as string[],
    );
  return live;
}

function disposeLive(live: Live): string | null {
  try {
    for (const h of live.owned) if (h.alive) h.dispose();
    live.ctx.dispose();
    live.rt.dispose();
    return null;
  } catch (thrown) {
    return `cleanup failed: ${String(thrown)}`;
  }
}

function runOne(qjs: QuickJSWASMModule, req: RunRequest): ThreadOutcome {
  if (kept && !req.keepState) {
    disposeLive(kept);
    kept = null;
  }
  let live: Live;
  try {
    live = (req.keepState ? kept : null) ?? openLive(qjs, req);
  } catch (thrown) {
    kept = null;
    return {
      error: null,
      stop: null,
      unsettled: false,
      fatal: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown),
    };
  }
  kept = null;
  const { rt, ctx } = live;
  const run: RunState = {
    req,
    output: new Output(req.output, req.limits.outputChars),
    stop: null,
    calls: 0,
    seq: 0,
    probeUntil: null,
  };
  live.run = run;
  rt.setMemoryLimit(req.limits.memoryBytes);
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle): QuickJSHandle => (handles.push(h), h);

  let error: RawError | null = null;
  let unsettled = false;
  try {
    const evaluated = ctx.evalCode(req.keepState ? scriptProgram(req.code) : wrapProgram(req.code), PROGRAM_FILE);
    if (evaluated.error) {
      rt.setMemoryLimit(-1);
      error = readError(ctx, keep(evaluated.error));
    } else {
      const promise = keep(evaluated.value);
      // Jobs run until none is left; an interrupted job rejects its promise, which ends a microtask loop.
      while (rt.hasPendingJob() && run.stop === null) {
        const jobs = rt.executePendingJobs();
        if (jobs.error) {
          // A job fails outside its promise only when the engine itself does: a bare null is out of memory (the
          // engine could not even make its InternalError).
          if (run.stop === null && ctx.typeof(jobs.error) === 'object' && ctx.dump(jobs.error) === null)
            run.stop = 'memory';
          error ??= readError(ctx, jobs.error);
          jobs.error.dispose();
        }
      }
      // Reading the outcome must not fail for want of memory the program used up.
      rt.setMemoryLimit(-1);
      const state = ctx.getPromiseState(promise);
      if (state.type === 'rejected') error = readError(ctx, keep(state.error));
      else if (state.type === 'fulfilled') keep(state.value);
      else unsettled = run.stop === null;
    }
    if (run.stop === null && error?.name === 'InternalError' && error.message === 'out of memory') run.stop = 'memory';
  } catch (thrown) {
    // A host-side exception out of the WASM engine (its native stack overflowed, or it aborted): the module's
    // state can no longer be trusted, so the host replaces this thread.
    return {
      error,
      stop: run.stop,
      unsettled: false,
      fatal: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown),
      ...(req.keepState ? { state: null } : {}),
    };
  }
  for (const h of handles) if (h.alive) h.dispose();
  // A kept context survives the program's own errors, not a limit: what a stopped program left is not trusted.
  if (req.keepState && run.stop === null) {
    const state = readState(live, run, req.code);
    live.run = null;
    kept = live;
    return { error, stop: null, unsettled, fatal: null, state };
  }
  // Disposed while the run is still current: a program stopped at its limit stays stopped (the interrupt
  // handler keeps saying so) while the engine frees what its pending jobs hold.
  const fatal = disposeLive(live);
  live.run = null;
  return { error, stop: run.stop, unsettled, fatal, ...(req.keepState ? { state: null } : {}) };
}

function readState(live: Live, run: RunState, code: string): KeptState {
  for (const name of declaredNames(code)) live.declared.add(name);
  // The probe reads the program's own values (a getter could loop): its own half-second deadline.
  run.probeUntil = Date.now() + 500;
  return probeState(live.ctx, live.rt, live.declared, live.baseline);
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
const { Memory } = (
  globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => WasmMemory } }
).WebAssembly;

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
        const outcome: ThreadOutcome = {
          error: null,
          stop: null,
          unsettled: false,
          fatal: `could not load QuickJS: ${String(error)}`,
        };
        port.postMessage({ type: 'done', id: req.id, outcome });
      },
    );
  });
  port.postMessage({ type: 'ready' });
}

void main();
