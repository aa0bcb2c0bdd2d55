/**
 * The web host carries the IPC contract (ipc-contract.ts) over one WebSocket per page.
 * The page is served at http://127.0.0.1:PORT/?token=T and connects to ws://127.0.0.1:PORT/ws?token=T;
 * a connection without the right token is refused.
 */
import type { EventChannel, EventMap, InvokeChannel, InvokeMap } from './ipc-contract.js';

export type ClientMessage = {
  readonly kind: 'invoke';
  readonly id: number;
  readonly channel: InvokeChannel;
  readonly args: InvokeMap[InvokeChannel]['args'];
};

export type ServerMessage =
  | { readonly kind: 'result'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly kind: 'result'; readonly id: number; readonly ok: false; readonly error: string }
  | { readonly kind: 'event'; readonly channel: EventChannel; readonly payload: EventMap[EventChannel] };

/** The port `parallax serve` listens on unless told otherwise. */
export const DEFAULT_PORT = 5178;
export const WS_PATH = '/ws';
export const TOKEN_PARAM = 'token';
