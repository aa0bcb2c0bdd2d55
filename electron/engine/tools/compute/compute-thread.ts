/**
 * The worker's side of the compute thread (thread-main.ts). Jobs are sent one at a time; each has a deadline
 * (the tool's own timeout) and the call's abort signal (a Code Mode program's deadline, a cancelled run). When
 * either fires while its job runs, the thread is terminated — whatever the job was doing, a `det` of a large
 * matrix or a pathological page — and a fresh one is started for the jobs still waiting. A job that passes
 * the thread's heap limit kills only the thread. Nothing a model sends can block the worker's event loop.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../sandbox/start-thread.js';
import type { ComputeInputs, ComputeJob, ComputeReply, ComputeRequest, ComputeValues } from './protocol.js';

export type ComputeFailure = 'input' | 'stack' | 'failed' | 'time' | 'cancel' | 'memory' | 'crashed';

/** A job that did not produce a value; `kind` says why, `message` in words. */
export class ComputeError extends Error {
  override readonly name = 'ComputeError';
  constructor(
    readonly kind: ComputeFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface ComputeOptions {
  readonly signal?: AbortSignal;
  /** The job is stopped after this long (its thread terminated). */
  readonly timeoutMs: number;
}

interface Job {
  readonly request: ComputeRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: ComputeError) => void;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  started: boolean;
  cleanup(): void;
}

export interface ComputeThreadOptions {
  /** The thread's V8 heap limit (old generation), MB. */
  readonly memoryMb?: number;
}

const DEFAULT_MEMORY_MB = 256;

export class ComputeThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;
  private disposed = false;
  /** Threads started so far (one more after each termination). */
  threadsStarted = 0;

  constructor(private readonly options: ComputeThreadOptions = {}) {}

  get memoryMb(): number {
    return this.options.memoryMb ?? DEFAULT_MEMORY_MB;
  }

  /** Start the thread (and load mathjs in it) now rather than on the first job. */
  warmUp(): Promise<void> {
    return this.ensure();
  }

  run<J extends ComputeJob>(job: J, input: ComputeInputs[J], options: ComputeOptions): Promise<ComputeValues[J]> {
    if (this.disposed) return Promise.reject(new ComputeError('crashed', 'the compute thread was shut down'));
    if (options.signal?.aborted) return Promise.reject(new ComputeError('cancel', 'cancelled before it started'));
    return new Promise<ComputeValues[J]>((resolve, reject) => {
      const entry: Job = {
        request: { ...input, job, id: this.nextId++ } as unknown as ComputeRequest,
        resolve: resolve as (value: unknown) => void,
        reject,
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        started: false,
        cleanup: () => undefined,
      };
      const onAbort = (): void =>
        this.stop(
          entry,
          new ComputeError('cancel', 'stopped: the call was cancelled (or its program reached its time limit)'),
        );
      options.signal?.addEventListener('abort', onAbort, { once: true });
      entry.cleanup = () => options.signal?.removeEventListener('abort', onAbort);
      this.queue.push(entry);
      this.pump();
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const job of [...this.queue, ...(this.running ? [this.running] : [])])
      this.finish(job, new ComputeError('crashed', 'the compute thread was shut down'));
    this.kill();
  }

  private ensure(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = startThread(
      import.meta.url,
      'thread-main',
      {
        resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
        stdout: true,
        stderr: true,
      },
      'compute-thread',
    );
    this.threadsStarted += 1;
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: ComputeReply) => {
        if (reply.id !== 0) return this.onReply(reply);
        // Booting keeps the process alive (someone awaits it); once ready, only a job in flight does.
        if (!this.running?.started) worker.unref();
        resolve();
      });
      const died = (error: ComputeError): void => {
        if (this.worker !== worker) return; // an old thread, already replaced
        reject(error);
        this.onDeath(error);
      };
      worker.on('error', (error: Error & { code?: string }) =>
        died(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ComputeError('memory', `stopped: it needed more than the ${this.memoryMb} MB of memory allowed`)
            : new ComputeError('crashed', `the compute thread failed: ${error.message}`),
        ),
      );
      worker.on('exit', (code) => died(new ComputeError('crashed', `the compute thread exited (code ${code})`)));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private pump(): void {
    if (this.running || this.queue.length === 0 || this.disposed) return;
    const job = this.queue.shift()!;
    this.running = job;
    this.ensure().then(
      () => {
        if (this.running !== job) return; // stopped while the thread started
        job.started = true;
        const timer = setTimeout(
          () => this.stop(job, new ComputeError('time', `stopped after ${job.timeoutMs / 1000} s`)),
          job.timeoutMs,
        );
        const cleanup = job.cleanup;
        job.cleanup = () => {
          clearTimeout(timer);
          cleanup();
        };
        this.worker!.ref();
        this.worker!.postMessage(job.request);
      },
      (error: ComputeError) => {
        if (this.running === job) this.finish(job, error);
      },
    );
  }

  private onReply(reply: ComputeReply): void {
    const job = this.running;
    if (!job || job.request.id !== reply.id) return;
    if (reply.ok) this.finish(job, null, reply.value);
    else this.finish(job, new ComputeError(reply.kind, reply.error));
  }

  /** The thread died on its own (out of memory, a crash): the running job fails, the others go to a new one. */
  private onDeath(error: ComputeError): void {
    this.worker = null;
    this.ready = null;
    const job = this.running;
    if (job) this.finish(job, error);
    else this.pump();
  }

  /** Stop one job: a queued one is dropped; the running one takes its thread down with it. */
  private stop(job: Job, error: ComputeError): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.cleanup();
      job.reject(error);
      return;
    }
    if (this.running !== job) return;
    if (job.started) this.kill();
    this.finish(job, error);
  }

  private finish(job: Job, error: ComputeError | null, value?: unknown): void {
    if (this.running === job) this.running = null;
    job.cleanup();
    if (error) job.reject(error);
    else job.resolve(value);
    this.worker?.unref();
    if (!this.disposed && !this.worker && this.threadsStarted > 0) void this.ensure().catch(() => undefined); // ready for the next job
    this.pump();
  }

  private kill(): void {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) void worker.terminate();
  }
}

let shared: ComputeThread | null = null;

/** The process's compute thread, shared by every tool call of the run. */
export function computeThread(): ComputeThread {
  shared ??= new ComputeThread();
  return shared;
}

export function disposeComputeThread(): void {
  shared?.dispose();
  shared = null;
}
