/**
 * Messages between the host (the engine's thread) and the sandbox thread that runs QuickJS.
 *
 * A tool call blocks the program: the sandbox thread posts a `call`, then sleeps in Atomics.wait on the
 * control buffer until the host posts the reply on the reply port and flips CONTROL_REPLY. Printed output is
 * written straight into a shared buffer, so it survives even if the host has to terminate the thread.
 */
import type { MessagePort } from 'node:worker_threads';

/** Int32 slots of the per-thread control buffer. */
export const CONTROL_REPLY = 0;
export const CONTROL_STOP = 1;
/** 1 while the host waits for the user to approve a tool call: the program's clock is stopped. */
export const CONTROL_PAUSED = 2;
/** Milliseconds added to the deadline: the time the program's clock was stopped so far. */
export const CONTROL_EXTRA_MS = 3;
export const CONTROL_SLOTS = 4;

/** Values of CONTROL_STOP, set by the host to stop the running program at its next interrupt check. */
export const STOP_CODES = { none: 0, time: 1, cancel: 2 } as const;

/** Int32 slots at the head of the per-run output buffer; text bytes (UTF-8) follow from OUTPUT_DATA. */
export const OUTPUT_BYTES = 0;
export const OUTPUT_TRUNCATED = 1;
export const OUTPUT_DATA = 16;

export type StopReason = 'time' | 'memory' | 'tool-calls' | 'cancel';

/** What the sandbox knows about one tool. */
export interface ToolManifestEntry {
  readonly name: string;
  /** Shown when a handle is printed: `fetch_url(url: string): {…}` (return type only when enabled). */
  readonly signature: string;
  /** `describe()`: the full signature with return type, then the description. */
  readonly describe: string;
  /** Hidden tools are reachable only through search_tools handles. */
  readonly hidden: boolean;
  /** Parameter names in order (Python's keyword arguments map onto them). */
  readonly params?: readonly string[];
}

export interface ThreadLimits {
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly outputChars: number;
  readonly maxCalls: number;
}

export interface RunRequest {
  readonly type: 'run';
  readonly id: number;
  readonly code: string;
  readonly tools: readonly ToolManifestEntry[];
  readonly limits: ThreadLimits;
  /** Epoch ms after which the program is interrupted. */
  readonly deadline: number;
  readonly output: SharedArrayBuffer;
  /**
   * codeState 'persist': run the program as a script in the context the previous program left (started now
   * if none), and keep it afterwards. Absent: a fresh runtime, disposed after the program (and any kept one too).
   */
  readonly keepState?: boolean;
}

export type CallKind = 'tool' | 'search';

export interface CallMessage {
  readonly type: 'call';
  readonly id: number;
  readonly seq: number;
  readonly kind: CallKind;
  readonly name: string;
  /** JSON text of the argument list, as the program passed it. */
  readonly args: string;
}

/** The reply envelope is JSON text parsed inside the sandbox, so results arrive as fresh QuickJS values. */
export interface ReplyMessage {
  readonly seq: number;
  readonly text: string;
}

/** An error value as read out of the sandbox: plain strings only. */
export interface RawError {
  readonly name: string;
  readonly message: string;
  readonly stack: string | null;
  /** False when the program threw something that is not an Error (a string, a number, …). */
  readonly isError: boolean;
}

export interface ThreadOutcome {
  readonly error: RawError | null;
  readonly stop: StopReason | null;
  /** The program's promise never settled (it awaited something nothing resolves). */
  readonly unsettled: boolean;
  /** The thread's engine broke (e.g. its native stack overflowed); the host must replace the thread. */
  readonly fatal: string | null;
  /** keepState: what the kept context holds after the program (null when it was discarded). */
  readonly state?: KeptState | null;
}

/** The variables a kept context holds and the runtime's memory, as the thread reports them after a program. */
export interface KeptState {
  readonly variables: readonly { readonly name: string; readonly type: string; readonly bytes: number | null }[];
  readonly memoryBytes: number | null;
}

export interface DoneMessage {
  readonly type: 'done';
  readonly id: number;
  readonly outcome: ThreadOutcome;
}

export interface ReadyMessage {
  readonly type: 'ready';
}

export interface FailedMessage {
  readonly type: 'failed';
  readonly message: string;
}

export type ThreadMessage = CallMessage | DoneMessage | ReadyMessage | FailedMessage;

export interface ThreadData {
  readonly control: SharedArrayBuffer;
  readonly replyPort: MessagePort;
  /** The memory limit to prepare the engine for before the first program. */
  readonly memoryBytes: number;
}

/** The model's code sits on line 2 of the evaluated source: `(async () => {` is line 1. */
export const WRAPPER_LINES = 1;
export const PROGRAM_FILE = 'program.js';

export function wrapProgram(code: string): string {
  return `(async () => {\n${code}\n})()`;
}

/**
 * A program whose variables stay (keepState): evaluated as a global script, so its top-level declarations live
 * in the kept context; the blank first line keeps the model's code on line 2, as wrapProgram does.
 */
export function scriptProgram(code: string): string {
  return `\n${code}\n`;
}
