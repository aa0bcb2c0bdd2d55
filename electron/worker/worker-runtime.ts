/**
 * The worker side of the host protocol: receive the spec and key, load the runner, say ready, wait for go,
 * run, post events in batches, exit. Works over Node's fork IPC (process.send) and over Electron's
 * utilityProcess port (process.parentPort), so one worker entry serves both launchers.
 */
import type { RunSpec } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import type { EngineIO } from '../engine/run-engine.js';
import type { ElicitAnswer } from '../engine/mcp/mcp-elicitation.js';
import { killTrackedChildren } from '../engine/child-processes.js';
import { HOST_PID_ENV, isHostToWorker, type HostToWorker, type WorkerToHost } from './worker-protocol.js';

/** The engine's IO; in a worker, approvals are always answered, by the host (the user decides there). */
export type RunIo = EngineIO & Required<Pick<EngineIO, 'askApproval'>>;

export type RunFn = (spec: RunSpec, io: RunIo) => Promise<void>;

interface WorkerPort {
  /**
   * Resolves once the message is handed to the channel (so exiting afterwards loses nothing); rejects with a
   * SendError when it could not be: `closed` when the channel is gone, else the message could not be encoded.
   */
  send(message: WorkerToHost): Promise<void>;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
  /** Whether the channel is already closed (fork: a disconnect that happened before anyone listened). */
  closed(): boolean;
}

/** The slice of Electron's utilityProcess parentPort the worker uses (no Electron types in the worker). */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

/** A message that did not reach the host. */
class SendError extends Error {
  constructor(
    message: string,
    readonly closed: boolean,
  ) {
    super(message);
  }
}

function connectPort(): WorkerPort {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      send: (m) => {
        try {
          parentPort.postMessage(m);
          return Promise.resolve();
        } catch (error) {
          return Promise.reject(new SendError((error as Error).message, false));
        }
      },
      onMessage: (fn) => parentPort.on('message', (e) => fn(e.data)),
      onDisconnect: () => {},
      closed: () => false,
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('This is a Parallax worker process: it is started by the host and needs its IPC channel.');
  return {
    send: (m) =>
      new Promise((resolve, reject) => {
        if (!process.connected) {
          reject(new SendError('the channel to the host is closed', true));
          return;
        }
        try {
          send(m, undefined, undefined, (error) =>
            error ? reject(new SendError(error.message, !process.connected)) : resolve(),
          );
        } catch (error) {
          // Thrown before anything was written: the message itself could not be encoded.
          reject(new SendError((error as Error).message, !process.connected));
        }
      }),
    onMessage: (fn) => process.on('message', fn),
    onDisconnect: (fn) => process.on('disconnect', fn),
    closed: () => !process.connected,
  };
}

/**
 * In place of an event that cannot be sent, a run-warning with the same seq: the record has no gap and says
 * what is missing. The original's size is not the problem here (the recorder caps it); this is for the rest.
 */
function standIn(event: StepEvent, reason: string): StepEvent {
  return {
    runId: event.runId,
    seq: event.seq,
    t: event.t,
    type: 'run-warning',
    message: `Event ${event.seq} (${event.type}) of this run could not be sent to the app and is missing from the record: ${reason}.`,
  };
}

/** Whether an event survives the channel's encoding (JSON under fork). */
function encodable(event: StepEvent): string | null {
  try {
    JSON.stringify(event);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** How often a worker checks that its host is still there. */
const HOST_WATCH_MS = 1000;

/**
 * The watchdog for hosts whose death closes no channel the worker can see (Electron's parentPort has no
 * disconnect event) or closes it late: the launcher names the host's pid in PARALLAX_HOST_PID; the host is
 * gone when that pid no longer exists, or when this process's parent was the host and no longer is (on
 * Linux and macOS an orphan is adopted by init or a subreaper).
 */
function watchHost(gone: () => void): void {
  const hostPid = Number(process.env[HOST_PID_ENV]);
  if (!Number.isInteger(hostPid) || hostPid <= 0) return;
  const parentWasHost = process.ppid === hostPid;
  const check = (): void => {
    if (parentWasHost && process.ppid !== hostPid) return gone();
    try {
      process.kill(hostPid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') gone();
    }
  };
  check();
  setInterval(check, HOST_WATCH_MS).unref();
}

/** Most events are posted one tick after they are emitted; a burst is cut into batches of this size. */
const MAX_BATCH = 256;

/**
 * `load` gets the spec so it can prepare what that run needs (e.g. a sandbox thread) before 'ready'.
 * `preload`: what the worker loads before any spec; 'loaded' is sent when it is done (a warm pool waits for it).
 * `standing`: what a 'preload' message adds (a standing pool's worker); 'loaded' waits for it too when the
 * message came first.
 */
export function serveWorker(
  load: (spec: RunSpec) => Promise<RunFn>,
  preload?: Promise<unknown>,
  standing?: () => Promise<unknown>,
): void {
  const port = connectPort();
  const controller = new AbortController();
  let init: Extract<HostToWorker, { type: 'init' }> | null = null;
  let run: RunFn | null = null;
  let released = false;
  let started = false;

  let buffer: StepEvent[] = [];
  let scheduled = false;
  let lastSend: Promise<void> = Promise.resolve();
  /** Where nothing reaches the host any more, the worker's stderr (the host shows its tail for a crashed run). */
  const lost = (events: readonly StepEvent[], why: string): void => {
    const seqs = events.length > 0 ? `${events[0].seq}–${events[events.length - 1].seq}` : '';
    process.stderr.write(
      `parallax worker: ${events.length} event(s) (seq ${seqs}) could not be sent to the host: ${why}\n`,
    );
  };
  const deliver = (events: StepEvent[]): Promise<void> =>
    port.send({ type: 'events', events }).catch((error: SendError) => {
      if (error.closed) return lost(events, error.message);
      // The batch could not be encoded: send what can be, and a stand-in for each event that cannot.
      const fixed = events.map((event) => {
        const problem = encodable(event);
        return problem === null ? event : standIn(event, problem);
      });
      return port.send({ type: 'events', events: fixed }).catch((again: SendError) => lost(fixed, again.message));
    });
  const flush = (): Promise<void> => {
    scheduled = false;
    if (buffer.length === 0) return lastSend;
    const events = buffer;
    buffer = [];
    lastSend = deliver(events);
    return lastSend;
  };
  const emit = (event: StepEvent): void => {
    buffer.push(event);
    if (buffer.length >= MAX_BATCH) void flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(() => void flush());
    }
  };

  // Approvals the run waits for, by id: the host answers each with an approval-answer message.
  const approvals = new Map<string, (decision: 'allow' | 'deny' | 'allow-comparison') => void>();
  const askApproval: RunIo['askApproval'] = ({ approvalId }, signal) =>
    new Promise((resolve, reject) => {
      void flush(); // the request event must reach the host now, not with the next batch
      const onAbort = (): void => {
        approvals.delete(approvalId);
        reject(new Error('The run was cancelled while it waited for approval.'));
      };
      // Removed when answered: a run asks once per call, and one listener per ask would pile up on the run's signal.
      approvals.set(approvalId, (decision) => {
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });

  // Forms the run waits for, by id: the host answers each with an elicitation-answer message. The engine
  // ends a wait by the signal (its time limit, the call's end, the run's cancel) and checks the content.
  const elicitations = new Map<string, (answer: ElicitAnswer) => void>();
  const askElicitation: NonNullable<EngineIO['askElicitation']> = ({ elicitationId }, signal) =>
    new Promise((resolve, reject) => {
      void flush(); // the elicitation-requested event must reach the host now
      const onAbort = (): void => {
        elicitations.delete(elicitationId);
        reject(new Error('The wait for the answer ended.'));
      };
      elicitations.set(elicitationId, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });

  const die = async (message: string, code: number): Promise<never> => {
    await flush();
    await port.send({ type: 'fatal', message }).catch(() => process.stderr.write(`${message}\n`));
    process.exit(code);
  };

  const start = (): void => {
    if (started || !run || !init) return;
    started = true;
    const { spec, apiKey, searchKey, elicitation } = init;
    init = { ...init, apiKey: null, searchKey: null }; // keep the keys only where the run needs them
    // A form is asked only where someone can answer it (the host said so); elsewhere the engine declines it.
    run(spec, {
      apiKey,
      searchKey: searchKey ?? null,
      signal: controller.signal,
      emit,
      askApproval,
      ...(elicitation ? { askElicitation } : {}),
    }).then(
      async () => {
        await flush();
        process.exit(0);
      },
      (err: unknown) => die(`The engine failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, 1),
    );
  };

  process.on('uncaughtException', (err) => void die(`Uncaught error in the worker: ${err.stack ?? err.message}`, 1));
  process.on(
    'unhandledRejection',
    (reason) =>
      void die(
        `Unhandled rejection in the worker: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
        1,
      ),
  );

  // Ctrl+C in a terminal reaches the whole process group; the host decides what a cancel means and tells
  // the worker, so the run ends as 'cancelled' with its events intact rather than dying mid-write.
  process.on('SIGINT', () => {});

  // The host is gone: nobody can receive events or record them. End the run's children and leave at once.
  const hostGone = (): void => {
    controller.abort();
    killTrackedChildren();
    process.exit(0);
  };
  port.onDisconnect(hostGone);
  // The channel may have closed while this module was still loading, before anyone listened for it.
  if (port.closed()) hostGone();
  watchHost(hostGone);
  process.on('exit', killTrackedChildren);

  // A failed preload is reported by `load` when the run asks for it, with the run's own error path.
  let more: Promise<unknown> = Promise.resolve();
  preload
    ?.then(() => more)
    .then(
      () => void port.send({ type: 'loaded' }).catch(() => undefined),
      () => undefined,
    );

  port.onMessage((raw) => {
    if (!isHostToWorker(raw)) return;
    const message: HostToWorker = raw;
    if (message.type === 'preload') {
      // Only before the run is known; what it starts is the engine's to use or stop at init.
      if (!init && standing) more = standing().catch(() => undefined);
    } else if (message.type === 'init') {
      if (init) return;
      init = message;
      load(message.spec).then(
        (fn) => {
          run = fn;
          if (released || controller.signal.aborted) start();
          else void port.send({ type: 'ready' }).catch(() => undefined); // a closed channel ends the worker via disconnect
        },
        (err: unknown) =>
          die(`The worker could not load the engine: ${err instanceof Error ? err.message : String(err)}`, 1),
      );
    } else if (message.type === 'approval-answer') {
      const resolve = approvals.get(message.approvalId);
      approvals.delete(message.approvalId);
      resolve?.(message.decision);
    } else if (message.type === 'elicitation-answer') {
      const resolve = elicitations.get(message.elicitationId);
      elicitations.delete(message.elicitationId);
      resolve?.({ action: message.action, ...(message.content ? { content: message.content } : {}) });
    } else if (message.type === 'go') {
      released = true;
      start();
    } else {
      // Cancel before go still runs the engine, with an aborted signal, so the run ends as 'cancelled'.
      controller.abort(typeof message.reason === 'string' ? message.reason.slice(0, 500) : undefined);
      released = true;
      start();
    }
  });
}
