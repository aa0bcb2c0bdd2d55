/**
 * Two web-host sessions on the simulated model, one round at a time: session A's run waits on an approval
 * nobody answers, session B's comparison still runs to its end (A's round lends its slot while it waits).
 * Apart, on a host with a short approval timeout, such a run is stopped by it, recorded as cancelled with
 * that reason. Real workers, the real engine, real WebSockets.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../../../electron/host/web/web-host.js';
import { waitFor } from '../session-helpers.js';
import { openClient } from './ws-client.js';

const started: WebHost[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.close()));
});

async function session(web: WebHost) {
  const client = await openClient(web);
  await client.invoke('app:ready');
  // Every page hears every comparison's events: each session keeps its own comparison's.
  let mine = '';
  return {
    ws: client.ws,
    invoke: client.invoke,
    get events() {
      return client.events.filter((e) => mine && e.runId.startsWith(mine));
    },
    set comparison(id: string) {
      mine = id;
    },
  };
}

async function startHost(approvalTimeoutMs: number): Promise<WebHost> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-web-fair-'));
  const web = await startWebHost({
    dataDir,
    port: 0,
    rendererDir: join(dataDir, 'no-renderer'),
    env: {},
    host: { onWarning: () => {}, approvalTimeoutMs },
  });
  started.push(web);
  return web;
}

const provider = { name: 'simulated', baseUrl: null, model: 'sim' };

/** Starts a ReAct run of time-and-title whose fetch_url asks for approval; resolves once it asks. */
async function startAsking(a: Awaited<ReturnType<typeof session>>): Promise<{ id: string; asked: number }> {
  const startA = await a.invoke('comparison:start', {
    task: 'time-and-title',
    modes: ['react'],
    concurrency: 1,
    provider,
    settings: { approvals: { fetch_url: 'ask' } },
  });
  if (startA.kind !== 'result' || !startA.ok) throw new Error(JSON.stringify(startA));
  const id = (startA.value as { id: string }).id;
  a.comparison = id;
  await waitFor(() => a.events.some((e) => e.type === 'approval-requested'), 120_000, 'A asks for approval');
  return { id, asked: a.events.find((e) => e.type === 'approval-requested')!.at };
}

describe('fair rounds on the web host', () => {
  // The wait is long enough never to end during the test: A is still waiting when B ends, whatever the load.
  it('an approval nobody answers holds no round another session needs', async () => {
    const web = await startHost(30 * 60_000);
    const a = await session(web);
    const b = await session(web);
    const { id } = await startAsking(a);

    const startB = await b.invoke('comparison:start', {
      task: 'calc',
      modes: ['react', 'code'],
      concurrency: 1,
      provider,
    });
    if (startB.kind !== 'result' || !startB.ok) throw new Error(JSON.stringify(startB));
    b.comparison = (startB.value as { id: string }).id;
    await waitFor(() => b.events.filter((e) => e.type === 'run-finished').length === 2, 180_000, 'B finishes');
    const bFinished = b.events.filter((e) => e.type === 'run-finished');
    expect(bFinished.map((e) => e.type === 'run-finished' && e.status)).toEqual(['answered', 'answered']);
    // B ended while A still waited: nothing of A was resolved or finished by then.
    expect(a.events.some((e) => e.type === 'approval-resolved' || e.type === 'run-finished')).toBe(false);

    // A's wait then ends by its cancel, recorded as such.
    expect(await a.invoke('comparison:cancel', id)).toMatchObject({ ok: true });
    await waitFor(() => a.events.some((e) => e.type === 'run-finished'), 120_000, 'A ends');
    expect(a.events.find((e) => e.type === 'run-finished')).toMatchObject({ status: 'cancelled' });
    expect(a.events.find((e) => e.type === 'approval-resolved')).toMatchObject({ decision: 'cancelled' });
    a.ws.close();
    b.ws.close();
  }, 400_000);

  it("an approval nobody answers times out, as the run's recorded reason", async () => {
    const timeoutMs = 3000;
    const web = await startHost(timeoutMs);
    const a = await session(web);
    const { id, asked } = await startAsking(a);

    await waitFor(() => a.events.some((e) => e.type === 'run-finished'), timeoutMs + 120_000, 'A times out');
    const fin = a.events.find((e) => e.type === 'run-finished')!;
    expect(fin).toMatchObject({ status: 'cancelled' });
    expect(fin.type === 'run-finished' && fin.error).toMatch(
      /nobody answered the approval for fetch_url within 3 s \(the approval timeout\)/,
    );
    expect(a.events.find((e) => e.type === 'approval-resolved')).toMatchObject({ decision: 'cancelled' });
    // Events are stamped on arrival, so the wait measured here may be a little shorter than the host's.
    expect(fin.at - asked).toBeGreaterThanOrEqual(timeoutMs - 1000);
    // The stored record says the same.
    const stored = await web.host['history:open'](id);
    const storedFin = stored.events.find((e) => e.type === 'run-finished');
    expect(storedFin?.type === 'run-finished' && storedFin.error).toMatch(/approval timeout/);
    a.ws.close();
  }, 400_000);
});
