/**
 * Two web-host sessions on the simulated model, one round at a time: session A's run waits on an approval
 * nobody answers, session B's comparison still runs to its end (A's round lends its slot while it waits), and
 * A's run is then stopped by the approval timeout, recorded as cancelled with that reason. Real workers,
 * the real engine, two real WebSockets.
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

const TIMEOUT_MS = 60_000;

describe('fair rounds on the web host', () => {
  it("an approval nobody answers holds no round another session needs, and times out as the run's recorded reason", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-web-fair-'));
    const web = await startWebHost({
      dataDir,
      port: 0,
      rendererDir: join(dataDir, 'no-renderer'),
      env: {},
      host: { onWarning: () => {}, approvalTimeoutMs: TIMEOUT_MS },
    });
    started.push(web);
    const a = await session(web);
    const b = await session(web);
    const provider = { name: 'simulated', baseUrl: null, model: 'sim' };
    const startA = await a.invoke('comparison:start', {
      task: 'time-and-title',
      modes: ['react'],
      concurrency: 1,
      provider,
      settings: { approvals: { fetch_url: 'ask' } },
    });
    if (startA.kind !== 'result' || !startA.ok) throw new Error(JSON.stringify(startA));
    a.comparison = (startA.value as { id: string }).id;
    await waitFor(() => a.events.some((e) => e.type === 'approval-requested'), 120_000, 'A asks for approval');
    const asked = a.events.find((e) => e.type === 'approval-requested')!.at;

    const startB = await b.invoke('comparison:start', {
      task: 'calc',
      modes: ['react', 'code'],
      concurrency: 1,
      provider,
    });
    if (startB.kind !== 'result' || !startB.ok) throw new Error(JSON.stringify(startB));
    b.comparison = (startB.value as { id: string }).id;
    await waitFor(
      () => b.events.filter((e) => e.type === 'run-finished').length === 2,
      TIMEOUT_MS + 120_000,
      'B finishes',
    );
    const bDone = Math.max(...b.events.filter((e) => e.type === 'run-finished').map((e) => e.at));
    const bFinished = b.events.filter((e) => e.type === 'run-finished');
    expect(bFinished.map((e) => e.type === 'run-finished' && e.status)).toEqual(['answered', 'answered']);
    // B ended while A still waited: nothing of A was resolved by then.
    expect(a.events.some((e) => e.type === 'approval-resolved' && e.at <= bDone)).toBe(false);

    await waitFor(() => a.events.some((e) => e.type === 'run-finished'), TIMEOUT_MS + 60_000, 'A times out');
    const fin = a.events.find((e) => e.type === 'run-finished')!;
    expect(fin).toMatchObject({ status: 'cancelled' });
    expect(fin.type === 'run-finished' && fin.error).toMatch(
      /nobody answered the approval for fetch_url within 1 minute \(the approval timeout\)/,
    );
    expect(a.events.find((e) => e.type === 'approval-resolved')).toMatchObject({ decision: 'cancelled' });
    expect(fin.at - asked).toBeGreaterThanOrEqual(TIMEOUT_MS - 1000);
    expect(fin.at).toBeGreaterThan(bDone); // B had ended before A's wait did: the round it waited in held nothing B needed
    // The stored record says the same.
    const stored = await web.host['history:open']((startA.value as { id: string }).id);
    const storedFin = stored.events.find((e) => e.type === 'run-finished');
    expect(storedFin?.type === 'run-finished' && storedFin.error).toMatch(/approval timeout/);
    a.ws.close();
    b.ws.close();
  }, 400_000);
});
