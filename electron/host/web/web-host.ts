/**
 * The headless web host: the built renderer over HTTP and the IPC contract over one WebSocket per page, on
 * 127.0.0.1 only. A random token in the page URL guards the socket, and the socket must come from this
 * server's own origin, so other sites in the user's browser cannot drive it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { INVOKE_CHANNELS, type InvokeChannel, type InvokeHandlers } from '../../../shared/ipc-contract.js';
import {
  DEFAULT_PORT,
  TOKEN_PARAM,
  WS_PATH,
  type ClientMessage,
  type ServerMessage,
} from '../../../shared/ws-protocol.js';
import { createHost, type Host, type HostOptions } from '../host.js';
import { memoryKeyStore } from '../key-store.js';
import { allowedFolders } from '../workspace-access.js';
import { webMcp } from '../mcp-access.js';
import { webAgents } from '../agent-access.js';
import { defaultRendererDir, serveStatic } from './static-files.js';
import { createPageGate, type PageGate } from '../page-gate.js';

export { DEFAULT_PORT };
const LOOPBACK = '127.0.0.1';
/** Events queued for a page that has not said app:ready yet; beyond this it must reload from history. */
const MAX_QUEUED = 50_000;

export interface WebHostOptions {
  readonly dataDir: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Only 127.0.0.1 is accepted; anything else is refused with an explanation. */
  readonly bindAddress?: string;
  readonly rendererDir?: string;
  /** Extra origins allowed to open the socket (e.g. the Vite dev server). */
  readonly allowedOrigins?: readonly string[];
  readonly token?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Folders whose subfolders the page may use as a workspace (`parallax serve --allow-dir`); none by default. */
  readonly allowDirs?: readonly string[];
  /**
   * MCP servers from the page (`parallax serve --allow-mcp`): refused without it; with it, streamable HTTP
   * servers, and stdio servers whose program is in `mcpCommands` (`--allow-mcp-command`).
   */
  readonly allowMcp?: boolean;
  readonly mcpCommands?: readonly string[];
  /** Programs an agent column from the page may start (`parallax serve --allow-agent-command`); none by default. */
  readonly agentCommands?: readonly string[];
  /** Env names beyond key and token variables a page may give its MCP servers and agents (`--allow-env`). */
  readonly allowEnv?: readonly string[];
  /** Variables a page may name as its custom provider's key (`--allow-key-env`); none by default. */
  readonly keyEnv?: readonly string[];
  /** Keep warm workers (started when a page says app:ready, refilled after each comparison); default on. */
  readonly warmPool?: boolean;
  readonly host?: Partial<
    Omit<
      HostOptions,
      'dataDir' | 'onEvents' | 'getApiKey' | 'keys' | 'appHost' | 'caller' | 'workspaces' | 'mcp' | 'agents'
    >
  >;
  /** Channels answered beside the host's, made from it (`parallax serve` merges in the suite handlers). */
  readonly moreHandlers?: (host: Host) => Partial<InvokeHandlers>;
}

export interface WebHost {
  /** The page URL, token included: http://127.0.0.1:PORT/?token=… */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly host: Host;
  close(): Promise<void>;
}

export function checkBindAddress(address: string): void {
  if (address !== LOOPBACK) {
    throw new Error(
      `The web host listens on ${LOOPBACK} only, so nothing outside this computer can reach it (asked for "${address}"). ` +
        `To use it from another machine, forward the port instead: ssh -L 5178:127.0.0.1:5178 <this machine>.`,
    );
  }
}

interface Client {
  readonly ws: WebSocket;
  /** Its page's events: held until it says app:ready (a page that reconnects comes back as a new client). */
  readonly gate: PageGate;
}

function sameToken(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const bind = options.bindAddress ?? LOOPBACK;
  checkBindAddress(bind);
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Port ${port} is not valid: use a number from 1 to 65535, or 0 for any free port.`);
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const keys = memoryKeyStore(options.env ?? process.env);
  const workspaces = await allowedFolders(options.allowDirs ?? []);
  const clients = new Set<Client>();

  const send = (client: Client, message: ServerMessage): void => {
    if (client.ws.readyState === client.ws.OPEN) client.ws.send(JSON.stringify(message));
  };
  const host = createHost({
    ...(options.warmPool === false ? {} : { pool: { keepWarm: true } }),
    ...options.host,
    dataDir: options.dataDir,
    appHost: 'web',
    caller: 'page',
    workspaces,
    mcp: webMcp({ allow: options.allowMcp === true, commands: options.mcpCommands ?? [], env: options.allowEnv ?? [] }),
    agents: webAgents(options.agentCommands ?? [], options.allowEnv ?? []),
    // A page holding the token may not send a variable of serve's environment to a URL of its choice: only the
    // names the operator allowed, as the desktop asks in a dialog.
    confirmKeyEnv: async (name) => {
      if ((options.keyEnv ?? []).includes(name)) return true;
      throw new Error(
        `This web host does not read ${name}: a page may name only the key variables its operator allowed. Start it with parallax serve --allow-key-env ${name}, or enter the key in the page.`,
      );
    },
    getApiKey: keys.getApiKey,
    keys,
    env: options.env ?? options.host?.env,
    onEvents(batch) {
      for (const c of clients) c.gate.push(batch);
    },
  });
  const handlers: Partial<InvokeHandlers> = { ...host, ...options.moreHandlers?.(host) };

  let origins = new Set<string>();
  let hosts = new Set<string>();
  const server = createServer((req, res) => {
    if (!hosts.has(req.headers.host ?? '')) {
      // A page reached through another host name (DNS rebinding) gets nothing.
      res
        .writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
        .end('This server answers only at its own 127.0.0.1 address.\n');
      return;
    }
    void serveStatic(rendererDir, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });

  const refuse = (socket: Duplex, status: number, text: string, reason: string): void => {
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${reason}\n`,
    );
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== WS_PATH) return refuse(socket, 404, 'Not Found', `The socket is at ${WS_PATH}.`);
    if (!hosts.has(req.headers.host ?? '')) return refuse(socket, 421, 'Misdirected Request', 'Wrong host.');
    const origin = req.headers.origin ?? '';
    if (!origins.has(origin))
      return refuse(socket, 403, 'Forbidden', 'The socket only accepts pages served by this Parallax host.');
    if (!sameToken(url.searchParams.get(TOKEN_PARAM), token)) {
      // Our own page with a stale token (the server restarted): complete the handshake only to close it with
      // 4401, which the page shows as "open the printed URL" instead of retrying forever. Nothing is read.
      wss.handleUpgrade(req, socket, head, (ws) =>
        ws.close(4401, 'Wrong or missing token: open the URL that `parallax serve` printed.'),
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws));
  });

  wss.on('connection', (ws: WebSocket) => {
    const client: Client = {
      ws,
      gate: createPageGate({
        send: (batch) => send(client, { kind: 'event', channel: 'run:events', payload: batch }),
        maxQueued: MAX_QUEUED,
      }),
    };
    clients.add(client);
    ws.on('close', () => {
      clients.delete(client);
      client.gate.dispose();
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => void handle(client, data.toString()));
  });

  async function handle(client: Client, text: string): Promise<void> {
    let msg: ClientMessage;
    try {
      msg = JSON.parse(text) as ClientMessage;
    } catch {
      return; // not a protocol message; nothing to answer
    }
    if (msg?.kind !== 'invoke' || typeof msg.id !== 'number') return;
    const { id, channel } = msg;
    try {
      if (!(INVOKE_CHANNELS as readonly string[]).includes(channel)) {
        throw new Error(`Unknown channel "${String(channel)}". This host offers: ${INVOKE_CHANNELS.join(', ')}.`);
      }
      const args = Array.isArray(msg.args) ? msg.args : [];
      const handler = handlers[channel as InvokeChannel] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (!handler) throw new Error(`This host does not answer "${String(channel)}".`);
      const value = await handler(...args);
      send(client, { kind: 'result', id, ok: true, value });
      if (channel === 'app:ready') client.gate.markReady();
    } catch (err) {
      send(client, { kind: 'result', id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `Port ${port} on ${LOOPBACK} is already in use. Pass --port with another number, or --port 0 for any free port.`,
            )
          : err,
      );
    });
    server.listen(port, bind, () => resolve());
  }).catch(async (err) => {
    await host.close();
    throw err;
  });
  const actual = (server.address() as AddressInfo).port;
  hosts = new Set([`${LOOPBACK}:${actual}`, `localhost:${actual}`]);
  origins = new Set([`http://${LOOPBACK}:${actual}`, `http://localhost:${actual}`, ...(options.allowedOrigins ?? [])]);

  let closing: Promise<void> | null = null;
  return {
    url: `http://${LOOPBACK}:${actual}/?${TOKEN_PARAM}=${token}`,
    port: actual,
    token,
    host,
    close: () =>
      (closing ??= (async () => {
        for (const c of clients) c.ws.close(1001, 'The Parallax host is shutting down.');
        await host.close();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
