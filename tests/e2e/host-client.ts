/**
 * The test's own connection to the web host (same contract as the page), to read what the host stored and to
 * wait on what it pushes: every run's events reach this socket as they reach the page's.
 */
import WebSocket from 'ws';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../../shared/ipc-contract.js';
import type { RunFinishedEvent, StepEvent } from '../../shared/step-event.js';
import type { ServerMessage } from '../../shared/ws-protocol.js';

export interface HostClient {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResult<C>>;
  /** Resolves once every one of these runs has its run-finished, as the host pushes it (the event, not a clock). */
  runsEnded(runIds: readonly string[]): Promise<RunFinishedEvent[]>;
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
  const finished = new Map<string, RunFinishedEvent>();
  const waiters = new Set<() => void>();
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(String(data)) as ServerMessage;
    if (msg.kind === 'event') {
      if (msg.channel !== 'run:events') return;
      for (const e of msg.payload as readonly StepEvent[]) if (e.type === 'run-finished') finished.set(e.runId, e);
      for (const check of [...waiters]) check();
      return;
    }
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.ok) p?.ok(msg.value);
    else p?.fail(new Error(msg.error));
  });
  const invoke: HostClient['invoke'] = (channel, ...args) =>
    new Promise((ok, fail) => {
      const id = next++;
      pending.set(id, { ok: ok as (v: unknown) => void, fail });
      ws.send(JSON.stringify({ kind: 'invoke', id, channel, args }));
    });
  // Ready for pushed events, as the page says it is: from now on the host sends this socket every batch.
  await invoke('app:ready');
  return {
    invoke,
    runsEnded: (runIds) =>
      new Promise((ok) => {
        const check = () => {
          if (!runIds.every((id) => finished.has(id))) return;
          waiters.delete(check);
          ok(runIds.map((id) => finished.get(id)!));
        };
        waiters.add(check);
        check();
      }),
    close: () => ws.close(),
  };
}
