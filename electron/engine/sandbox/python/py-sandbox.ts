/**
 * Host side of Code Mode's Python sandbox: owns one Pyodide child process (started ahead of the run, replaced
 * after it had to be killed or ran out of memory), runs one program at a time on it, answers its tool calls,
 * and enforces the time limit from outside: at the deadline it sends a stop word (Python gets
 * KeyboardInterrupt) and abandons a tool still running; if the child has not finished shortly after, it is
 * killed. Same contract as the QuickJS sandbox (sandbox.ts): same run and outcome shapes, same limits.
 */
import { ProgramClock } from '../program-clock.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { trackChild } from '../../child-processes.js';
import type { Writable } from 'node:stream';
import type { KeptState, RawError, StopReason } from '../protocol.js';
import type { SandboxOutcome, SandboxRun } from '../sandbox.js';
import type { ShellSandboxInfo } from '../shell-sandbox.js';
import { pythonLaunch, type PyContainment, type PyLaunch } from './py-launch.js';
import type { ChildToHost, HostToChild } from './py-protocol.js';

/** After asking a program to stop, how long it may take before its process is killed. */
const STOP_GRACE_MS = 1500;
/** Room past the output cap for the child's own truncation note; anything beyond breaks the protocol. */
const OUTPUT_NOTE_ROOM = 200;
/** The longest line the child may write (a tool call's arguments included). */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
const MESSAGE_TYPES = new Set(['ready', 'failed', 'out', 'call', 'stop', 'done']);

/** Whether a parsed line has the shape of a ChildToHost message (the child is not trusted to send one). */
function isMessage(value: unknown): value is ChildToHost {
  if (typeof value !== 'object' || value === null) return false;
  const msg = value as Record<string, unknown>;
  if (typeof msg.type !== 'string' || !MESSAGE_TYPES.has(msg.type)) return false;
  if (msg.type === 'out') return typeof msg.text === 'string' && typeof msg.id === 'number';
  if (msg.type === 'call')
    return typeof msg.seq === 'number' && typeof msg.name === 'string' && typeof msg.args === 'string';
  return true;
}

export interface PyLoadFacts {
  /** Milliseconds from spawning the child to Pyodide ready (prelude included). */
  readonly loadMs: number;
  /** Resident size of the child once loaded. */
  readonly rssBytes: number;
  readonly containment: PyContainment;
  /** Whether Pyodide came from the build's boot snapshot rather than a plain boot. */
  readonly fromSnapshot: boolean;
}

class Child {
  readonly proc: ChildProcess;
  readonly ready: Promise<PyLoadFacts>;
  dead: string | null = null;
  onMessage: ((msg: ChildToHost) => void) | null = null;
  onDeath: ((why: string) => void) | null = null;
  /** The child wrote something outside the protocol: it has been killed (an escaped program may be talking). */
  onBreach: ((why: string) => void) | null = null;
  private loaded = false;
  private stderr = '';

  /** `launch` is pythonLaunch()'s answer, made by PySandbox (which reports a launch that cannot be made). */
  constructor(launch: PyLaunch) {
    const spawnedAt = performance.now();
    this.proc = spawn(launch.command, launch.args, { env: launch.env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const untrack = trackChild(() => this.proc.kill('SIGKILL'));
    this.proc.on('exit', untrack);
    this.proc.stdin?.on('error', () => undefined);
    (this.proc.stdio[3] as Writable | null)?.on('error', () => undefined);
    this.proc.stderr?.on('data', (b: Buffer) => {
      this.stderr = (this.stderr + b.toString()).slice(-2000);
    });
    this.ready = new Promise<PyLoadFacts>((resolve, reject) => {
      let text = '';
      this.proc.stdout?.on('data', (b: Buffer) => {
        if (this.dead) return;
        const piece = b.toString();
        // Only the new piece is searched for the end of a line: a line that never ends costs no rescans.
        if (!piece.includes('\n')) {
          text += piece;
          if (text.length > MAX_LINE_CHARS)
            this.breach(`it wrote a line longer than ${MAX_LINE_CHARS / 1024 / 1024} MiB`);
          return;
        }
        text += piece;
        let i: number;
        while ((i = text.indexOf('\n')) >= 0) {
          const line = text.slice(0, i);
          text = text.slice(i + 1);
          let msg: unknown;
          try {
            msg = JSON.parse(line);
          } catch {
            msg = null;
          }
          if (!isMessage(msg)) {
            // Before the load is done nothing of a program runs yet: a stray line (a library's notice) is ignored.
            if (!this.loaded) continue;
            this.breach(`it wrote a line that is not a protocol message: ${JSON.stringify(line.slice(0, 60))}`);
            return;
          }
          if (msg.type === 'ready') {
            this.loaded = true;
            resolve({
              loadMs: performance.now() - spawnedAt,
              rssBytes: msg.rssBytes,
              containment: launch.containment,
              fromSnapshot: msg.fromSnapshot === true,
            });
          } else if (msg.type === 'failed') reject(new Error(`The Python sandbox could not start: ${msg.message}`));
          else this.onMessage?.(msg);
          if (this.dead) return;
        }
        if (text.length > MAX_LINE_CHARS)
          this.breach(`it wrote a line longer than ${MAX_LINE_CHARS / 1024 / 1024} MiB`);
      });
      const die = (why: string): void => {
        if (this.dead) return;
        this.dead = why;
        const detail = this.stderr.trim().split('\n').pop();
        reject(new Error(`The Python sandbox could not start: ${why}${detail ? ` (${detail})` : ''}`));
        this.onDeath?.(why);
      };
      this.proc.on('error', (error) => die(`its process failed: ${error.message}`));
      this.proc.on('exit', (code, signal) => die(`its process exited (${signal ?? `code ${code}`})`));
    });
    this.ready.catch(() => undefined);
  }

  send(message: HostToChild): void {
    this.proc.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  stopWord(word: 'time' | 'cancel', id: number): void {
    (this.proc.stdio[3] as Writable | null)?.write(`${word} ${id}\n`);
  }

  kill(): void {
    this.dead ??= 'terminated';
    this.proc.kill('SIGKILL');
  }

  /** Ends a child that broke the protocol; the program running on it (if any) hears why first. */
  breach(why: string): void {
    if (this.dead) return;
    const listener = this.onBreach;
    this.kill();
    listener?.(why);
  }
}

export interface PySandboxOptions {
  /** What contains the child besides Node's own walls; default what this process found (shellSandbox()). */
  readonly sandbox?: ShellSandboxInfo;
  /** How to start the child; default pythonLaunch(sandbox). Tests start a hostile child in its place. */
  readonly launch?: () => PyLaunch;
}

export class PySandbox {
  constructor(private readonly options: PySandboxOptions = {}) {}
  private child: Child | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  private disposed = false;
  /** Child processes started so far (one is replaced after it was killed or ran out of memory). */
  processesStarted = 0;
  /** What the latest child's load cost. */
  lastLoad: PyLoadFacts | null = null;

  run(run: SandboxRun): Promise<SandboxOutcome> {
    const result = this.tail.then(() => this.runNow(run));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Starts the child and loads Pyodide now, so the first program does not pay for it. */
  async warmUp(): Promise<PyLoadFacts> {
    await this.ensureChild();
    return this.lastLoad!;
  }

  dispose(): void {
    this.disposed = true;
    this.child?.kill();
    this.child = null;
  }

  private async ensureChild(): Promise<Child> {
    if (this.disposed) throw new Error('The Python sandbox was disposed; create a new one.');
    if (!this.child || this.child.dead) {
      let launch: PyLaunch;
      try {
        launch = this.options.launch ? this.options.launch() : pythonLaunch({ sandbox: this.options.sandbox });
      } catch (error) {
        // No way to start the child here (no Node.js beside the desktop app): said as it is.
        throw new Error(
          `The Python sandbox could not start: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      this.child = new Child(launch);
      this.processesStarted += 1;
      this.child.ready.then(
        (facts) => (this.lastLoad = facts),
        () => undefined,
      );
    }
    await this.child.ready;
    return this.child;
  }

  private async runNow(run: SandboxRun): Promise<SandboxOutcome> {
    const empty = { error: null, unsettled: false, output: '', truncated: false, durationMs: 0, killed: false };
    if (run.signal?.aborted) return { ...empty, stop: 'cancel', fatal: null };
    const child = await this.ensureChild();
    const { limits } = run;
    const id = ++this.nextId;
    const started = performance.now();

    return new Promise<SandboxOutcome>((resolve) => {
      let inFlight: { seq: number; abort: AbortController } | null = null;
      let settled = false;
      let killed = false;
      let killTimer: NodeJS.Timeout | undefined;
      let output = '';
      let truncated = false;
      let memoryStop = false;
      const reply = (seq: number, text: string, stopping?: 'time' | 'cancel'): void =>
        child.send({ type: 'reply', seq, text, ...(stopping ? { stop: stopping } : {}) });
      const finish = (outcome: {
        error: RawError | null;
        stop: StopReason | null;
        fatal: string | null;
        state?: KeptState | null;
      }): void => {
        if (settled) return;
        settled = true;
        const waited = clock.stop();
        clearTimeout(killTimer);
        run.signal?.removeEventListener('abort', onAbort);
        inFlight?.abort.abort();
        child.onMessage = null;
        child.onDeath = null;
        child.onBreach = null;
        resolve({
          ...outcome,
          unsettled: false,
          output,
          truncated,
          durationMs: performance.now() - started - waited,
          killed,
        });
      };
      const stop = (reason: 'time' | 'cancel'): void => {
        if (settled || killTimer) return;
        child.stopWord(reason, id);
        if (inFlight) {
          const call = inFlight;
          inFlight = null;
          call.abort.abort();
          reply(
            call.seq,
            JSON.stringify({ ok: false, error: reason === 'time' ? 'time limit exceeded' : 'the run was cancelled' }),
            reason,
          );
        }
        killTimer = setTimeout(() => {
          killed = true;
          child.kill();
          finish({ error: null, stop: reason, fatal: null });
        }, STOP_GRACE_MS);
      };
      const onAbort = (): void => stop('cancel');
      let calls = 0;
      // The host keeps the protocol whatever the child sends: past the output cap, a call beyond the limit or
      // while one is pending, the program ends with the limit said plainly, and the child is replaced.
      const breach = (why: string, error: RawError): void => {
        if (settled) return;
        killed = true;
        if (output.length > limits.outputChars) output = output.slice(0, limits.outputChars);
        finish({ error, stop: null, fatal: null });
        child.breach(why);
      };
      child.onBreach = (why) => {
        killed = true;
        finish({
          error: {
            name: 'SandboxError',
            message: `the sandbox process broke its protocol (${why}) and was stopped`,
            stack: null,
            isError: true,
          },
          stop: null,
          fatal: null,
        });
      };

      child.onMessage = (msg) => {
        if (msg.type === 'stop') memoryStop = msg.reason === 'memory';
        if (!('id' in msg) || msg.id !== id) return;
        if (msg.type === 'out') {
          if (truncated || output.length + msg.text.length > limits.outputChars + OUTPUT_NOTE_ROOM) {
            truncated = true;
            breach('output past the limit', {
              name: 'OutputLimit',
              message: `output limit of ${limits.outputChars} characters exceeded — the program was stopped. Print less: filter or summarise inside the program`,
              stack: null,
              isError: true,
            });
            return;
          }
          output += msg.text;
          truncated ||= msg.truncated === true;
        } else if (msg.type === 'call') {
          calls += 1;
          if (inFlight || calls > limits.maxToolCalls) {
            breach(inFlight ? 'a tool call while another was pending' : 'more tool calls than the limit', {
              name: 'SandboxError',
              message: `the sandbox process broke its protocol (${inFlight ? 'a second tool call while one was pending' : `more than ${limits.maxToolCalls} tool calls`}) and was stopped`,
              stack: null,
              isError: true,
            });
            return;
          }
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
        } else if (msg.type === 'done') {
          // The child ends itself after these (its heap stays grown, or Pyodide broke): never send it more.
          if (msg.fatal || msg.stop === 'memory') child.kill();
          finish({
            error: msg.error,
            stop: msg.stop,
            fatal: msg.fatal,
            ...('state' in msg ? { state: msg.state } : {}),
          });
        }
      };
      child.onDeath = (why) =>
        finish(memoryStop ? { error: null, stop: 'memory', fatal: null } : { error: null, stop: null, fatal: why });
      // The time limit counts the program's own time: a wait for the user's approval stops the clock.
      const clock = new ProgramClock(limits.timeoutMs, () => stop('time'));
      run.signal?.addEventListener('abort', onAbort, { once: true });
      child.send({
        type: 'run',
        id,
        code: run.code,
        tools: run.tools,
        outputChars: limits.outputChars,
        maxCalls: limits.maxToolCalls,
        memoryBytes: limits.memoryMb * 1024 * 1024,
        ...(run.keepState ? { keepState: true } : {}),
      });
      if (run.signal?.aborted) stop('cancel');
    });
  }
}
