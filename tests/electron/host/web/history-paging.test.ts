/** history:page over the web host's real WebSocket: stored comparisons in pages, search, and hostile queries. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonListItem, HistoryPage } from '../../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { HistoryStore } from '../../../../electron/host/history-store.js';
import { startWebHost, type WebHost } from '../../../../electron/host/web/web-host.js';
import { syntheticLauncher } from '../session-helpers.js';
import { openClient } from './ws-client.js';

const hosts: WebHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function seeded(count: number): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-paging-'));
  const store = new HistoryStore(dataDir);
  const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };
  for (let i = 0; i < count; i++) {
    const id = `p${String(i).padStart(3, '0')}`;
    await store.create({
      id,
      createdAt: 1000 + i,
      task: { id: null, text: i % 2 ? 'odd task' : 'even task' },
      provider,
      settings: DEFAULT_SETTINGS,
      workspaceSource: 'empty',
      runs: [{ runId: `${id}-r`, mode: 'react' }],
    });
    await writeFile(store.runLogPath(id, `${id}-r`), '');
    await store.finishRecording(id, new Map());
  }
  return dataDir;
}

async function connect(dataDir: string) {
  const web = await startWebHost({
    dataDir,
    port: 0,
    rendererDir: join(dataDir, 'no-renderer'),
    env: {},
    host: { launcher: syntheticLauncher({}, ['--events', '4']), onWarning: () => {} },
  });
  hosts.push(web);
  const client = await openClient(web);
  return async (channel: string, ...args: unknown[]) => {
    const m = await client.invoke(channel, ...args);
    if (!m.ok) throw new Error(m.error);
    return { value: m.value, bytes: m.bytes };
  };
}

describe('history:page over the WebSocket', () => {
  it('sends the list in pages that add up to history:list, each smaller than the whole', async () => {
    const invoke = await connect(await seeded(25));
    const whole = await invoke('history:list');
    const all = (whole.value as ComparisonListItem[]).map((i) => i.meta.id);
    expect(all).toHaveLength(25);
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const { value, bytes } = await invoke('history:page', { offset, limit: 10 });
      const page = value as HistoryPage;
      expect(page.total).toBe(25);
      expect(page.items.length).toBeLessThanOrEqual(10);
      expect(bytes).toBeLessThan(whole.bytes);
      expect(page).not.toHaveProperty('damaged');
      seen.push(...page.items.map((i) => i.meta.id));
      offset = page.nextOffset;
    }
    expect(seen).toEqual(all);
    const odd = (await invoke('history:page', { search: 'odd', limit: 200 })).value as HistoryPage;
    expect(odd.total).toBe(12);
    expect(odd.items.every((i) => i.meta.task.text === 'odd task')).toBe(true);
    // The History view's filters, over the whole history: how runs ended (these never started) and how recent.
    expect((await invoke('history:page', { outcome: 'answered' })).value).toMatchObject({
      items: [],
      total: 0,
      stored: 25,
    });
    expect((await invoke('history:page', { outcome: 'not-answered' })).value).toMatchObject({ total: 25, stored: 25 });
    const recent = (await invoke('history:page', { since: 1020, search: 'even' })).value as HistoryPage;
    expect(recent.items.map((i) => i.meta.id)).toEqual(['p024', 'p022', 'p020']);
  });

  it('answers a hostile query with a clear error or a bounded page, never everything at once', async () => {
    const invoke = await connect(await seeded(3));
    await expect(invoke('history:page', 'all')).rejects.toThrow(/one query object/);
    await expect(invoke('history:page')).rejects.toThrow();
    const huge = (
      await invoke('history:page', {
        offset: -5,
        limit: 1e9,
        search: 7,
        mode: ['x'],
        outcome: 'everything',
        since: 'yesterday',
      })
    ).value as HistoryPage;
    expect(huge.items.map((i) => i.meta.id)).toEqual(['p002', 'p001', 'p000']);
    const past = (await invoke('history:page', { offset: 99 })).value as HistoryPage;
    expect(past).toMatchObject({ items: [], total: 3, nextOffset: null });
  });
});
