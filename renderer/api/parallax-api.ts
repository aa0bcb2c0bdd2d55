/**
 * The API the renderer expects from its host. The Electron preload exposes an object of exactly this shape as
 * `window.parallax` (contextBridge); the web host is reached over a WebSocket instead (ws-transport.ts).
 *
 * One method per invoke channel, named by the channel itself (e.g. `parallax['history:open'](id)`), plus
 * `on(channel, listener)` for pushed event channels, returning a function that removes the listener.
 */
import type { EventChannel, EventMap, InvokeArgs, InvokeChannel, InvokeResult } from '../../shared/ipc-contract.js';

export type ParallaxInvokers = {
  readonly [C in InvokeChannel]: (...args: InvokeArgs<C>) => Promise<InvokeResult<C>>;
};

export interface ParallaxApi extends ParallaxInvokers {
  on<E extends EventChannel>(channel: E, listener: (payload: EventMap[E]) => void): () => void;
}

declare global {
  interface Window {
    /** Present only inside the Electron app (set by the preload). */
    parallax?: ParallaxApi;
  }
}
