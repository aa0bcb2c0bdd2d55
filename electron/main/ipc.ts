/**
 * Thin typed wrappers over ipcMain/webContents, keyed by the one contract in shared/ipc-contract.ts.
 * Every invoke is checked twice before it reaches a handler: the sending frame must be one of the app's own
 * pages, and the argument count must match the contract (the renderer is not trusted with shapes).
 */
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import {
  INVOKE_CHANNELS,
  type EventChannel,
  type EventMap,
  type InvokeArgs,
  type InvokeChannel,
  type InvokeHandlers,
  type InvokeResult,
} from '../../shared/ipc-contract.js';
import { isTrustedUrl } from './app-origin.js';

/** The part of ipcMain these wrappers use (a fake in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** Expected argument count per channel, checked against the contract's tuple lengths at compile time. */
export const INVOKE_ARITY: { readonly [C in InvokeChannel]: InvokeArgs<C>['length'] } = {
  'app:info': 0,
  'app:ready': 0,
  'tasks:list': 0,
  'comparison:start': 1,
  'comparison:cancel': 1,
  'run:cancel': 1,
  'history:list': 0,
  'history:page': 1,
  'history:damaged': 0,
  'history:open': 1,
  'history:delete': 1,
  'history:diff': 2,
  'report:export': 2,
  'report:send-otlp': 2,
  'provider:models': 1,
  'provider:test': 1,
  'keys:set': 3,
  'keys:status': 0,
  'prices:get': 0,
  'prices:set': 1,
  'prices:remove': 1,
  'prices:reset': 0,
  'keys:use-env': 2,
  'workspace:choose': 0,
  'approval:answer': 3,
  'elicitation:answer': 3,
  'suites:list': 0,
  'suites:open': 1,
  'suites:export': 2,
  'agents:view': 1,
};

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/** A sender is trusted when its frame still exists and its URL is on one of the app's origins. */
export function senderFrom(origins: readonly string[]): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    return frame !== null && frame !== undefined && isTrustedUrl(frame.url, origins);
  };
}

export class UntrustedSenderError extends Error {
  constructor(channel: string, url: string | undefined) {
    super(
      `Refused '${channel}': the request came from ${url ?? 'a frame that no longer exists'}, not from the Parallax window.`,
    );
    this.name = 'UntrustedSenderError';
  }
}

/** Registers one invoke channel; the handler gets the typed arguments only, never the IPC event. */
export function handle<C extends InvokeChannel>(
  ipc: IpcMainLike,
  channel: C,
  handler: (...args: InvokeArgs<C>) => Promise<InvokeResult<C>>,
  isTrusted: SenderCheck,
): void {
  ipc.handle(channel, async (event, ...args) => {
    if (!isTrusted(event)) throw new UntrustedSenderError(channel, event.senderFrame?.url);
    const expected = INVOKE_ARITY[channel];
    if (args.length !== expected) {
      throw new Error(
        `'${channel}' takes ${expected} argument(s) but got ${args.length}. Call it through window.parallax.`,
      );
    }
    return handler(...(args as InvokeArgs<C>));
  });
}

/** Registers every channel of the contract; returns a function that removes them all. */
export function registerInvokeHandlers(ipc: IpcMainLike, handlers: InvokeHandlers, isTrusted: SenderCheck): () => void {
  for (const channel of INVOKE_CHANNELS) {
    // The cast joins the per-channel generic back up; `handlers` is checked against InvokeHandlers above.
    handle(ipc, channel, handlers[channel] as (...args: unknown[]) => Promise<never>, isTrusted);
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipc.removeHandler(channel);
  };
}

/** Pushes one event to a page, unless the page is already gone. */
export function send<C extends EventChannel>(
  contents: Pick<WebContents, 'send' | 'isDestroyed'>,
  channel: C,
  payload: EventMap[C],
): boolean {
  if (contents.isDestroyed()) return false;
  contents.send(channel, payload);
  return true;
}
