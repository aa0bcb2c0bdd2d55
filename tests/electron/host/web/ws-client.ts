/**
 * A page's side of the web host's WebSocket for the tests: connect as the served page would (token and
 * origin), invoke channels, and collect the run events pushed (each stamped with when it arrived).
 */
import WebSocket from 'ws';
import type { StepEvent } from '../../../../shared/step-event.js';
import type { ServerMessage } from '../../../../shared/ws-protocol.js';
import type { WebHost } from '../../../../electron/host/web/web-host.js';

export type ArrivedEvent = StepEvent & { readonly at: number };
type Result = Extract<ServerMessage, { kind: 'result' }>;

export interface WsClient {
  readonly ws: WebSocket;
  /** The host's answer as sent; `bytes`: the size of the message that carried it. */
  invoke(channel: string, ...args: unknown[]): Promise<Result & { bytes: number }>;
  /** The value, or a rejection with the host's error message. */
  value(channel: string, ...args: unknown[]): Promise<unknown>;
  /** Every run event pushed so far, in arrival order. */
  readonly events: ArrivedEvent[];
}

/** Wraps an open socket. */
export function wsClient(ws: WebSocket): WsClient {
  let id = 0;
  const events: ArrivedEvent[] = [];
  const waiting = new Map<number, (m: Result, bytes: number) => void>();
  ws.on('message', (data) => {
    const text = data.toString();
    const m = JSON.parse(text) as ServerMessage;
    if (m.kind === 'event' && m.channel === 'run:events')
      events.push(...(m.payload as StepEvent[]).map((e) => ({ ...e, at: Date.now() })));
    if (m.kind === 'result') waiting.get(m.id)?.(m, text.length);
  });
  const invoke = (channel: string, ...args: unknown[]) =>
    new Promise<Result & { bytes: number }>((resolve) => {
      const n = ++id;
      waiting.set(n, (m, bytes) => resolve({ ...m, bytes }));
      ws.send(JSON.stringify({ kind: 'invoke', id: n, channel, args }));
    });
  const value = async (channel: string, ...args: unknown[]) => {
    const m = await invoke(channel, ...args);
    if (!m.ok) throw new Error(m.error);
    return m.value;
  };
  return { ws, invoke, value, events };
}

/** A socket opened the way the served page opens it (its token, its origin). */
export async function openClient(web: WebHost): Promise<WsClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, {
    headers: { origin: `http://127.0.0.1:${web.port}` },
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  return wsClient(ws);
}
