/**
 * Messages between the host (py-sandbox.ts) and the Pyodide child process (py-child-main.ts), one JSON object
 * per line: host → child on the child's stdin, child → host on its stdout. A third pipe (fd 3) carries only
 * stop words ("time 7", "cancel 7": the word and the run's id) to a helper thread of the child, which raises KeyboardInterrupt in Python
 * through Pyodide's interrupt buffer while the main thread is busy in the program.
 */
import type { KeptState, RawError, StopReason, ToolManifestEntry } from '../protocol.js';

export interface PyRunMessage {
  readonly type: 'run';
  readonly id: number;
  readonly code: string;
  readonly tools: readonly ToolManifestEntry[];
  readonly outputChars: number;
  readonly maxCalls: number;
  readonly memoryBytes: number;
  /** codeState 'persist': run in the namespace the previous program left, and keep it. */
  readonly keepState?: boolean;
}

export interface PyReplyMessage {
  readonly type: 'reply';
  readonly seq: number;
  readonly text: string;
  /** Set when the host abandoned the call because the program is being stopped. */
  readonly stop?: 'time' | 'cancel';
}

export type HostToChild = PyRunMessage | PyReplyMessage;

export type ChildToHost =
  | { readonly type: 'ready'; readonly loadMs: number; readonly rssBytes: number; readonly fromSnapshot: boolean }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'out'; readonly id: number; readonly text: string; readonly truncated: boolean }
  | {
      readonly type: 'call';
      readonly id: number;
      readonly seq: number;
      readonly kind: 'tool' | 'search';
      readonly name: string;
      readonly args: string;
    }
  | { readonly type: 'stop'; readonly id: number; readonly reason: StopReason }
  | {
      readonly type: 'done';
      readonly id: number;
      readonly error: RawError | null;
      readonly stop: StopReason | null;
      readonly fatal: string | null;
      readonly state?: KeptState | null;
    };

/** Int32 slots of the child's control buffer (shared by its main and helper threads). */
export const PY_INTERRUPT = 0;
export const PY_STOP = 1;
/** The run's memory cap in MiB of the process's resident size; 0 between runs. */
export const PY_MEMORY_CAP_MB = 2;
/** The id of the run in progress: a stop word for an earlier run is ignored. */
export const PY_RUN_ID = 3;
export const PY_SLOTS = 4;
export const PY_STOP_CODES = { none: 0, time: 1, cancel: 2, memory: 3, 'tool-calls': 4 } as const;
export const PY_STOP_NAMES: readonly (StopReason | null)[] = [null, 'time', 'cancel', 'memory', 'tool-calls'];
