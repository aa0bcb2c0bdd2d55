/**
 * Host side of the sandbox: owns one sandbox thread (started on first use, replaced whenever it had to be
 * terminated), runs one program at a time on it, answers its tool calls, and enforces the time limit from
 * outside: at the deadline it asks the program to stop (and abandons a tool still running), and if the
 * thread has not finished shortly after, it terminates the thread. Nothing a program does can block the
 * host's event loop or outlive the limit.
 */
import { ProgramClock } from './program-clock.js';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import {
  CONTROL_EXTRA_MS,
  CONTROL_PAUSED,
  CONTROL_REPLY,
  CONTROL_SLOTS,
  CONTROL_STOP,
  OUTPUT_BYTES,
  OUTPUT_DATA,
  OUTPUT_TRUNCATED,
  STOP_CODES,
  type CallKind,
  type RunRequest,
  type StopReason,
  type ThreadMessage,
  type ThreadOutcome,
  type ToolManifestEntry,
} from './protocol.js';
import type { SandboxLimits } from './limits.js';
import { startThread } from './start-thread.js';

/**
 * Answers one call from the program; resolves to the JSON reply envelope. `pauseClock` stops the program's
 * time limit (while the user decides on an approval) and returns the function that restarts it.
 */
export type CallHandler = (
  kind: CallKind,
  name: string,
  args: string,
  signal: AbortSignal,
  pauseClock: () => () => void,
) => Promise<string>;

export interface SandboxRun {
  readonly code: string;
  readonly tools: readonly ToolManifestEntry[];
  readonly limits: Required<SandboxLimits>;
  readonly onCall: CallHandler;
  /** Aborting stops the program (reported as stop 'cancel'). */
  readonly signal?: AbortSignal;
  /** codeState 'persist': the program's variables stay for the next program on this sandbox (RunRequest.keepState). */
  readonly keepState?: boolean;
}

export interface SandboxOutcome extends ThreadOutcome {
  readonly output: string;
  readonly truncated: boolean;
  readonly durationMs: number;
  /** The thread did not stop in time and was terminated. */
  readonly killed: boolean;
}

/** After asking a program to stop, how long it may take before its thread is terminated. */
const STOP_GRACE_MS = 1500;
/** The thread's native stack: room enough that QuickJS's own stack check fires first in ordinary recursion. */
const THREAD_STACK_MB = 16;

class Thread {
  readonly worker: Worker;
  readonly control: Int32Array;
  readonly replyPort: MessagePort;
  readonly ready: Promise<void>;
  dead: string | null = null;
  onMessage: ((msg: ThreadMessage) => void) | null = null;
  onDeath: ((why: string) => void) | null = null;

  constructor(memoryMb: number) {
    const control = new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.control = new Int32Array(control);
    const { port1, port2 } = new MessageChannel();
    this.replyPort = port1;
    this.worker = startThread(
      import.meta.url,
      'thread-main',
      {
        workerData: { control, replyPort: port2, memoryBytes: memoryMb * 1024 * 1024 },
        transferList: [port2],
        resourceLimits: { stackSizeMb: THREAD_STACK_MB },
        stdout: true,
        stderr: true,
      },
      'sandbox-thread',
    );
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (msg: ThreadMessage) => {
        if (msg.type === 'ready') resolve();
        else if (msg.type === 'failed') reject(new Error(`The code sandbox could not start: ${msg.message}`));
        else this.onMessage?.(msg);
      });
      const die = (why: string): void => {
        if (this.dead) return;
        this.dead = why;
        reject(new Error(`The code sandbox could not start: ${why}`));
        this.onDeath?.(why);
      };
      this.worker.on('error', (error) => die(`sandbox thread failed: ${error.message}`));
      this.worker.on('exit', (code) => die(`sandbox thread exited (code ${code})`));
    });
    this.ready.catch(() => undefined);
  }

  kill(): void {
    this.dead ??= 'terminated';
    this.replyPort.close();
    void this.worker.terminate();
  }
}

export interface SandboxOptions {
  /** The memory limit the thread's engine is prepared for at start (a run with another limit rebuilds it). */
  readonly memoryMb?: number;
}

export class Sandbox {
  private thread: Thread | null = null;
  private memoryMb: number;
  private tail: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  private disposed = false;
  /** Threads started so far (a thread is replaced after it had to be terminated). */
  threadsStarted = 0;

  constructor(options: SandboxOptions = {}) {
    this.memoryMb = options.memoryMb ?? 64;
  }

  /** Runs one program; programs on the same sandbox run one after another. */
  run(run: SandboxRun): Promise<SandboxOutcome> {
    const result = this.tail.then(() => this.runNow(run));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Starts the thread now rather than on the first program (its start-up is then not billed to a program). */
  async warmUp(): Promise<void> {
    await this.ensureThread();
  }

  dispose(): void {
    this.disposed = true;
    this.thread?.kill();
    this.thread = null;
  }

  private async ensureThread(): Promise<Thread> {
    if (this.disposed) throw new Error('The code sandbox was disposed; create a new one.');
    if (!this.thread || this.thread.dead) {
      this.thread = new Thread(this.memoryMb);
      this.threadsStarted += 1;
    }
    await this.thread.ready;
    return this.thread;
  }

  private async runNow(run: SandboxRun): Promise<SandboxOutcome> {
    const empty = { error: null, unsettled: false, output: '', truncated: false, durationMs: 0, killed: false };
    if (run.signal?.aborted) return { ...empty, stop: 'cancel', fatal: null };
    this.memoryMb = run.limits.memoryMb;
    const thread = await this.ensureThread();
    const { limits } = run;
    const outputBuffer = new SharedArrayBuffer(OUTPUT_DATA + limits.outputChars * 3 + 1024);
    const id = ++this.nextId;
    const started = performance.now();
    Atomics.store(thread.control, CONTROL_STOP, STOP_CODES.none);
    Atomics.store(thread.control, CONTROL_PAUSED, 0);
    Atomics.store(thread.control, CONTROL_EXTRA_MS, 0);
    const request: RunRequest = {
      type: 'run',
      id,
      code: run.code,
      tools: run.tools,
      limits: {
        memoryBytes: limits.memoryMb * 1024 * 1024,
        stackBytes: limits.stackKb * 1024,
        outputChars: limits.outputChars,
        maxCalls: limits.maxToolCalls,
      },
      deadline: Date.now() + limits.timeoutMs,
      output: outputBuffer,
      ...(run.keepState ? { keepState: true } : {}),
    };

    return new Promise<SandboxOutcome>((resolve) => {
      let inFlight: { seq: number; abort: AbortController } | null = null;
      let settled = false;
      let killed = false;
      let killTimer: NodeJS.Timeout | undefined;
      const reply = (seq: number, text: string): void => {
        thread.replyPort.postMessage({ seq, text });
        Atomics.store(thread.control, CONTROL_REPLY, 1);
        Atomics.notify(thread.control, CONTROL_REPLY);
      };
      const finish = (outcome: ThreadOutcome): void => {
        if (settled) return;
        settled = true;
        const waited = clock.stop();
        clearTimeout(killTimer);
        run.signal?.removeEventListener('abort', onAbort);
        inFlight?.abort.abort();
        thread.onMessage = null;
        thread.onDeath = null;
        thread.worker.unref();
        const { text, truncated } = readOutput(outputBuffer);
        resolve({ ...outcome, output: text, truncated, durationMs: performance.now() - started - waited, killed });
      };
      const stop = (reason: Extract<StopReason, 'time' | 'cancel'>): void => {
        if (settled || killTimer) return;
        Atomics.store(thread.control, CONTROL_STOP, STOP_CODES[reason]);
        if (inFlight) {
          const call = inFlight;
          inFlight = null;
          call.abort.abort();
          reply(
            call.seq,
            JSON.stringify({ ok: false, error: reason === 'time' ? 'time limit exceeded' : 'the run was cancelled' }),
          );
        }
        killTimer = setTimeout(() => {
          killed = true;
          thread.kill();
          finish({ error: null, stop: reason, unsettled: false, fatal: null });
        }, STOP_GRACE_MS);
      };
      const onAbort = (): void => stop('cancel');

      thread.onMessage = (msg) => {
        if (msg.type === 'call' && msg.id === id) {
          const abort = new AbortController();
          inFlight = { seq: msg.seq, abort };
          run
            .onCall(msg.kind, msg.name, msg.args, abort.signal, clock.pause)
            .catch((error: unknown) =>
              JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) }),
            )
            .then((text) => {
              if (inFlight?.seq !== msg.seq) return; // abandoned at the deadline
              inFlight = null;
              reply(msg.seq, text);
            });
        } else if (msg.type === 'done' && msg.id === id) {
          if (msg.outcome.fatal) thread.kill();
          finish(msg.outcome);
        }
      };
      thread.onDeath = (why) => finish({ error: null, stop: null, unsettled: false, fatal: why });
      // The time limit counts the program's own time: a wait for the user's approval stops the clock, and the
      // thread's own deadline check is told how long it was stopped.
      const clock = new ProgramClock(limits.timeoutMs, () => stop('time'), {
        paused: () => Atomics.store(thread.control, CONTROL_PAUSED, 1),
        resumed: (pausedMs) => {
          Atomics.store(thread.control, CONTROL_EXTRA_MS, Math.round(pausedMs));
          Atomics.store(thread.control, CONTROL_PAUSED, 0);
        },
      });
      run.signal?.addEventListener('abort', onAbort, { once: true });
      thread.worker.ref();
      thread.worker.postMessage(request);
      // A cancel that landed while the thread was starting fired no listener: stop the program now.
      if (run.signal?.aborted) stop('cancel');
    });
  }
}

function readOutput(buffer: SharedArrayBuffer): { text: string; truncated: boolean } {
  const header = new Int32Array(buffer, 0, 4);
  const bytes = Atomics.load(header, OUTPUT_BYTES);
  // TextDecoder refuses views of shared memory: copy first.
  const text = new TextDecoder().decode(new Uint8Array(buffer, OUTPUT_DATA, bytes).slice());
  return { text, truncated: Atomics.load(header, OUTPUT_TRUNCATED) === 1 };
}
