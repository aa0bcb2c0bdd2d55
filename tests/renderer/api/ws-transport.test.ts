/** The WebSocket client against a real `ws` server speaking shared/ws-protocol.ts. */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import type { ClientMessage, ServerMessage } from '../../../shared/ws-protocol.js';
import {
  backoffDelay,
  createWsTransport,
  socketUrlFromLocation,
  type ConnectionState,
} from '../../../renderer/api/ws-transport.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    for (const c of s.clients) c.terminate();
    await new Promise((ok) => s.close(ok));
  }
});

function server(port = 0): Promise<WebSocketServer> {
  return new Promise((ok) => {
    const s: WebSocketServer = new WebSocketServer({ host: '127.0.0.1', port }, () => ok(s));
    servers.push(s);
    s.on('connection', (ws: NodeWebSocket) => {
      ws.on('message', (data: Buffer) => {
        const msg = JSON.parse(String(data)) as ClientMessage;
        const reply: ServerMessage =
          msg.channel === 'history:open'
            ? { kind: 'result', id: msg.id, ok: false, error: 'No comparison "nope" in history.' }
            : { kind: 'result', id: msg.id, ok: true, value: { echo: msg.channel, args: msg.args } };
        if (msg.channel !== 'app:ready') ws.send(JSON.stringify(reply));
      });
    });
  });
}

const portOf = (s: WebSocketServer) => (s.address() as AddressInfo).port;
const nodeSocket = (url: string) => new NodeWebSocket(url) as unknown as WebSocket;
const until = async (cond: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('ws transport', () => {
  it('derives the socket URL from the page URL and its token', () => {
    expect(socketUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:5178', search: '?token=a%2Bb' })).toBe(
      'ws://127.0.0.1:5178/ws?token=a%2Bb',
    );
    expect(socketUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:5178', search: '' })).toBeNull();
  });

  it('backs off exponentially up to the cap', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, 300, 4000, mid))).toEqual([300, 600, 1200, 2400, 4000, 4000]);
  });

  it('matches results to invokes, rejects with the host’s message, and delivers events', async () => {
    const s = await server();
    const t = createWsTransport({ url: `ws://127.0.0.1:${portOf(s)}/ws?token=x`, createSocket: nodeSocket });
    const [a, b] = await Promise.all([t.invoke('tasks:list'), t.invoke('history:delete', 'abc')]);
    expect(a).toEqual({ echo: 'tasks:list', args: [] });
    expect(b).toEqual({ echo: 'history:delete', args: ['abc'] });
    await expect(t.invoke('history:open', 'nope')).rejects.toThrow('No comparison "nope" in history.');
    const got: unknown[] = [];
    t.on('menu:command', (c) => got.push(c));
    for (const c of s.clients)
      c.send(JSON.stringify({ kind: 'event', channel: 'menu:command', payload: 'toggle-theme' }));
    await until(() => got.length === 1);
    expect(got).toEqual(['toggle-theme']);
  });

  it('rejects invokes in flight when the socket drops, reconnects, and works again', async () => {
    const s = await server();
    const port = portOf(s);
    const states: ConnectionState['status'][] = [];
    const t = createWsTransport({
      url: `ws://127.0.0.1:${port}/ws`,
      createSocket: nodeSocket,
      minDelayMs: 50,
      maxDelayMs: 200,
    });
    t.onConnection((st) => states.push(st.status));
    await t.invoke('tasks:list');
    const inFlight = t.invoke('app:ready'); // the test server never answers this one
    for (const c of s.clients) c.terminate();
    await expect(inFlight).rejects.toThrow(/lost/);
    await until(() => t.connection().status === 'open');
    expect(states).toContain('closed');
    await expect(t.invoke('tasks:list')).resolves.toEqual({ echo: 'tasks:list', args: [] });
  });

  it('an invoke made while the host is down waits for it to come back', async () => {
    const probe = await server();
    const port = portOf(probe);
    await new Promise((ok) => probe.close(ok));
    servers.splice(servers.indexOf(probe), 1);
    const t = createWsTransport({
      url: `ws://127.0.0.1:${port}/ws`,
      createSocket: nodeSocket,
      minDelayMs: 50,
      maxDelayMs: 100,
    });
    const pending = t.invoke('keys:status');
    await until(() => t.connection().status === 'closed');
    await server(port);
    await expect(pending).resolves.toEqual({ echo: 'keys:status', args: [] });
  });
});
