/**
 * The renderer's one way to talk to its host: `invoke(channel, ...args)` and `on(channel, listener)`, over the
 * Electron preload (`window.parallax`) when present, else over the web host's WebSocket.
 */
import type { EventChannel, EventMap, InvokeArgs, InvokeChannel, InvokeResult } from '../../shared/ipc-contract.js';
import type { ParallaxApi } from './parallax-api.js';
import { createWsTransport, socketUrlFromLocation, type ConnectionState, type Transport } from './ws-transport.js';

/** Wraps the preload object: it is always "connected" (IPC cannot drop). */
export function preloadTransport(api: ParallaxApi): Transport {
  const open: ConnectionState = { status: 'open' };
  return {
    invoke: (channel, ...args) => (api[channel] as (...a: unknown[]) => Promise<never>)(...args),
    on: (channel, listener) => api.on(channel, listener),
    onConnection: () => () => {},
    connection: () => open,
    retryNow: () => {},
  };
}

/** Used when the page was opened without a token: every call fails with the same clear message. */
function missingTokenTransport(): Transport {
  const reason = 'This page was opened without its access token. Open the full link that `parallax serve` printed.';
  const state: ConnectionState = { status: 'unauthorized', reason };
  return {
    invoke: () => Promise.reject(new Error(reason)),
    on: () => () => {},
    onConnection: () => () => {},
    connection: () => state,
    retryNow: () => {},
  };
}

let transport: Transport | null = null;

export function getTransport(): Transport {
  if (transport) return transport;
  if (window.parallax) transport = preloadTransport(window.parallax);
  else {
    const url = socketUrlFromLocation(window.location);
    transport = url ? createWsTransport({ url }) : missingTokenTransport();
  }
  return transport;
}

/** For tests and benches that supply their own host. */
export function setTransport(t: Transport): void {
  transport = t;
}

export function invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResult<C>> {
  return getTransport().invoke(channel, ...args);
}

export function on<E extends EventChannel>(channel: E, listener: (payload: EventMap[E]) => void): () => void {
  return getTransport().on(channel, listener);
}

export type { ConnectionState, Transport };
