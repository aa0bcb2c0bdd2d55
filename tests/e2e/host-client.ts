/** The test's own connection to the web host (same contract as the page), to read what the host stored. */
import WebSocket from 'ws';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../../shared/ipc-contract.js';
import type { ServerMessage } from '../../shared/ws-protocol.js';

export interface HostClient {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResult<C>>;
  close(): void;
}

export async function connectHost(pageUrl: string): Promise<HostClient> {
  const u = new URL(pageUrl);
  const ws = new WebSocket(`ws://${u.host}/ws?token=${u.searchParams.get('token')}`, { origin: `http://${u.host}` });
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  let next = 1;
  const pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(String(data)) as ServerMessage;
    if (msg.kind !== 'result') return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.ok) p?.ok(msg.value);
    else p?.fail(new Error(msg.error));
  });
  return {
    invoke: (channel, ...args) =>
      new Promise((ok, fail) => {
        const id = next++;
        pending.set(id, { ok: ok as (v: unknown) => void, fail });
        ws.send(JSON.stringify({ kind: 'invoke', id, channel, args }));
      }),
    close: () => ws.close(),
  };
}
