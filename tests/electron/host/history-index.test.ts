import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { INDEX_FILE } from '../../../electron/host/history-index.js';

function meta(
  id: string,
  createdAt: number,
  task = 'What is 123 * 456 + 789?',
  mode: 'react' | 'code' = 'react',
): ComparisonMeta {
  return {
    id,
    createdAt,
    task: { id: 'calc', text: task },
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    provider: { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true },
    runs: [{ runId: `${id}-r`, mode }],
  };
}

function events(runId: string, finished: boolean): string {
  const out: StepEvent[] = [];
  const add = (e: object) => out.push({ ...e, runId, seq: out.length, t: out.length } as StepEvent);
  add({
    type: 'run-started',
    mode: 'react',
    task: { id: 'calc', text: 'x' },
    provider: meta('x', 0).provider,
    settings: DEFAULT_SETTINGS,
    systemPrompt: 's',
    tools: [],
    startedAt: 1,
  });
  add({ type: 'model-request', step: 1, attempt: 1, messageCount: 2, toolNames: [] });
  add({
    type: 'model-response',
    step: 1,
    usage: { prompt: 10, completion: 7 },
    latencyMs: 5,
    finishReason: 'stop',
    text: 'ok',
    toolCalls: [],
  });
  if (finished)
    add({ type: 'run-finished', status: 'answered', answer: '56877', validation: null, totals: computeTotals(out) });
  return out.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

async function stored(count: number) {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-index-'));
  const store = new HistoryStore(dir);
  for (let i = 0; i < count; i++)
    await add(store, `c${String(i).padStart(3, '0')}`, 1000 + i, true, i % 3 === 0 ? 'count the apples' : undefined);
  return { dir, store };
}

async function add(
  store: HistoryStore,
  id: string,
  createdAt: number,
  finished: boolean,
  task?: string,
  mode?: 'react' | 'code',
): Promise<void> {
  await store.create(meta(id, createdAt, task, mode));
  await writeFile(store.runLogPath(id, `${id}-r`), events(`${id}-r`, finished));
  await store.finishRecording(id, new Map());
}

const ids = (items: readonly { meta: { id: string } }[]) => items.map((i) => i.meta.id);

describe('history index', () => {
  it('pages the whole list newest first, each comparison once, with the same items as the full list', async () => {
    const { store } = await stored(23);
    const all = await store.list();
    expect(ids(all)).toHaveLength(23);
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await store.page({ offset, limit: 5 });
      expect(page.total).toBe(23);
      seen.push(...ids(page.items));
      offset = page.nextOffset;
      pages++;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(ids(all));
    expect(seen[0]).toBe('c022');
    // Search and filters are served from the index, with their own totals.
    const apples = await store.page({ search: 'APPLES count', limit: 3 });
    expect(apples.total).toBe(8);
    expect(ids(apples.items)).toEqual(['c021', 'c018', 'c015']);
    expect(apples.nextOffset).toBe(3);
    expect((await store.page({ mode: 'code' })).total).toBe(0);
    expect((await store.page({ status: 'answered' })).total).toBe(23);
  });

  it('rebuilds the index when it is missing or damaged, and never hides a comparison it does not name', async () => {
    const { dir, store } = await stored(4);
    await store.list();
    const file = join(dir, INDEX_FILE);
    expect(JSON.parse(await readFile(file, 'utf8')).entries).toHaveLength(4);
    // A comparison written by another process, unknown to the index: listed, then indexed.
    await add(new HistoryStore(dir), 'z-new', 9999, true);
    expect(ids((await store.page({ limit: 1 })).items)).toEqual(['z-new']);
    expect(JSON.parse(await readFile(file, 'utf8')).entries.map((e: unknown[]) => e[0])).toContain('z-new');
    // Damaged, missing, of another version: rebuilt from the folders.
    for (const text of [
      '{"version":2,"entries":[["x",1]],"damaged":[]}',
      'garbage',
      '{"version":99,"entries":[],"damaged":[]}',
    ]) {
      await writeFile(file, text);
      expect(ids(await store.list())).toEqual(['z-new', 'c003', 'c002', 'c001', 'c000']);
    }
    await rm(file);
    const progress: string[] = [];
    expect(
      (
        await new HistoryStore(
          dir,
          () => {},
          (l) => progress.push(l),
        ).page()
      ).total,
    ).toBe(5);
    // A stale index naming a removed folder: the comparison is dropped, not listed.
    await rm(join(dir, 'comparisons', 'c001'), { recursive: true });
    expect(ids(await store.list())).toEqual(['z-new', 'c003', 'c002', 'c000']);
    // An index that lists a settled comparison whose folder was replaced by damage: found by the thorough check.
    await writeFile(join(store.dir('c002'), 'meta.json'), '{ not json');
    expect((await store.listDamaged()).map((d) => d.id)).toEqual(['c002']);
    expect(ids(await store.list())).toEqual(['z-new', 'c003', 'c000']);
  });

  it('looks again at comparisons that may still change, and keeps the index on finish and delete', async () => {
    const { dir, store } = await stored(2);
    await add(store, 'going', 5000, false);
    expect((await store.page()).items[0].runs[0].status).toBe('interrupted');
    // Its run ends (in another process): the next page shows it answered without any rebuild request.
    await writeFile(store.runLogPath('going', 'going-r'), events('going-r', true));
    expect((await store.page()).items[0].runs[0].status).toBe('answered');
    await store.refreshSummary('going');
    const entry = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')).entries.find(
      (e: unknown[]) => e[0] === 'going',
    );
    expect(entry[6]).toBe(0); // settled: no longer looked at again each time
    await store.delete('going');
    expect(JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')).entries.map((e: unknown[]) => e[0])).toEqual([
      'c001',
      'c000',
    ]);
    expect((await store.latest())?.meta.id).toBe('c001');
  });

  it('reports a cold rebuild of a large history with a progress line', async () => {
    const { dir } = await stored(0);
    const store = new HistoryStore(dir);
    for (let i = 0; i < 520; i++) {
      const id = `b${i}`;
      await store.create(meta(id, i));
      await writeFile(store.runLogPath(id, `${id}-r`), events(`${id}-r`, true));
      // A history at rest: a meta.json written within the last moments is read again on purpose (its time may
      // be too coarse to tell a later edit), so on a fast machine the whole fresh set would be re-read.
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(join(store.dir(id), 'meta.json'), hourAgo, hourAgo);
    }
    const lines: string[] = [];
    const page = await new HistoryStore(
      dir,
      () => {},
      (l) => lines.push(l),
    ).page({ limit: 10 });
    expect(page.total).toBe(520);
    expect(lines[0]).toMatch(/Indexing the history: 520 comparisons/);
    expect(lines.at(-1)).toMatch(/Indexed 520 comparisons/);
    const again: string[] = [];
    await new HistoryStore(
      dir,
      () => {},
      (l) => again.push(l),
    ).page({ limit: 10 });
    expect(again).toEqual([]);
  });
});
