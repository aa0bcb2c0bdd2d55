/**
 * The web host's transport: the IPC contract over one WebSocket (shared/ws-protocol.ts). Reconnects with
 * exponential backoff; invokes made while disconnected wait for the socket (up to a limit) instead of failing
 * at once, and invokes in flight when the socket drops are rejected (their results would never come).
 */
import type { EventChannel, EventMap, InvokeArgs, InvokeChannel, InvokeResult } from '../../shared/ipc-contract.js';
import type { ClientMessage, ServerMessage } from '../../shared/ws-protocol.js';
import { TOKEN_PARAM, WS_PATH } from '../../shared/ws-protocol.js';

export type ConnectionState =
  | { readonly status: 'connecting'; readonly attempt: number }
  | { readonly status: 'open' }
  | { readonly status: 'closed'; readonly attempt: number; readonly retryAt: number; readonly reason: string }
  | { readonly status: 'unauthorized'; readonly reason: string };

export interface Transport {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResult<C>>;
  on<E extends EventChannel>(channel: E, listener: (payload: EventMap[E]) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  connection(): ConnectionState;
  /** Skip the remaining backoff and try to connect now. */
  retryNow(): void;
}

export interface WsOptions {
  readonly url: string;
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** How long an invoke waits for a connection before it fails. */
  readonly waitForOpenMs?: number;
  readonly createSocket?: (url: string) => WebSocket;
}

/** The socket URL for a page served by the web host, or null when the page URL carries no token. */
export function socketUrlFromLocation(loc: Pick<Location, 'protocol' | 'host' | 'search'>): string | null {
  const token = new URLSearchParams(loc.search).get(TOKEN_PARAM);
  if (!token) return null;
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/** Delay before reconnect attempt n (1-based): doubles from min to max, with ±20 % jitter. */
export function backoffDelay(attempt: number, minMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

export function createWsTransport(options: WsOptions): Transport {
  const minDelay = options.minDelayMs ?? 300;
  const maxDelay = options.maxDelayMs ?? 8000;
  const waitForOpenMs = options.waitForOpenMs ?? 20_000;
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));

  let socket: WebSocket | null = null;
  let state: ConnectionState = { status: 'connecting', attempt: 1 };
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let everOpened = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const waiters = new Set<() => void>();
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const connectionListeners = new Set<(s: ConnectionState) => void>();

  const setState = (next: ConnectionState) => {
    state = next;
    for (const l of connectionListeners) l(next);
    if (next.status === 'open') {
      for (const w of waiters) w();
      waiters.clear();
    }
  };

  const connect = () => {
    retryTimer = null;
    attempt++;
    setState({ status: 'connecting', attempt });
    const ws = createSocket(options.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      everOpened = true;
      setState({ status: 'open' });
    };
    ws.onmessage = (ev: MessageEvent) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return; // Not ours; the protocol only sends JSON.
      }
      if (msg.kind === 'result') {
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.ok) p.resolve(msg.value);
        else p.reject(new Error(msg.error));
      } else if (msg.kind === 'event') {
        const set = listeners.get(msg.channel);
        if (set) for (const l of set) (l as (payload: unknown) => void)(msg.payload);
      }
    };
    // A failed connection reports an error and then a close; the close handler does the work.
    ws.onerror = () => {};
    ws.onclose = (ev: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      for (const p of pending.values())
        p.reject(new Error('The connection to the Parallax host was lost before it answered.'));
      pending.clear();
      // A refused handshake before any success usually means a wrong or expired token: retrying cannot help.
      if (ev.code === 4401 || ev.code === 1008) {
        setState({ status: 'unauthorized', reason: ev.reason || 'The host refused this page’s access token.' });
        return;
      }
      const delay = backoffDelay(attempt, minDelay, maxDelay);
      const reason = everOpened ? 'The connection to the Parallax host was lost.' : 'Cannot reach the Parallax host.';
      setState({ status: 'closed', attempt, retryAt: Date.now() + delay, reason });
      retryTimer = setTimeout(connect, delay);
    };
  };

  const waitForOpen = () =>
    new Promise<void>((resolve, reject) => {
      if (state.status === 'open') return resolve();
      if (state.status === 'unauthorized') return reject(new Error(state.reason));
      const timer = setTimeout(() => {
        waiters.delete(done);
        reject(new Error('Not connected to the Parallax host. Check that `parallax serve` is still running.'));
      }, waitForOpenMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      waiters.add(done);
    });

  connect();

  return {
    async invoke(channel, ...args) {
      await waitForOpen();
      const id = nextId++;
      const msg: ClientMessage = { kind: 'invoke', id, channel, args };
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        try {
          socket!.send(JSON.stringify(msg));
        } catch (err) {
          pending.delete(id);
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    },
    on(channel, listener) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set!.delete(listener as (payload: never) => void);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    connection: () => state,
    retryNow() {
      if (state.status !== 'closed' || !retryTimer) return;
      clearTimeout(retryTimer);
      connect();
    },
  };
}
