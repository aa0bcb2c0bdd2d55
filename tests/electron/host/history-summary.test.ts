import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { SUMMARY_FILE } from '../../../electron/host/history-summary.js';

function meta(id: string, createdAt: number): ComparisonMeta {
  return {
    id,
    createdAt,
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    provider: { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true },
    runs: [
      { runId: `${id}-react`, mode: 'react' },
      { runId: `${id}-code`, mode: 'code' },
    ],
  };
}

function runEvents(runId: string, prompts: number[]): StepEvent[] {
  const events: StepEvent[] = [];
  const add = (e: object) => events.push({ ...e, runId, seq: events.length, t: events.length * 10 } as StepEvent);
  add({
    type: 'run-started',
    mode: 'react',
    task: { id: 'calc', text: 'x' },
    provider: meta('x', 0).provider,
    settings: DEFAULT_SETTINGS,
    systemPrompt: 's',
    tools: [],
    startedAt: 1000,
  });
  prompts.forEach((prompt, i) => {
    add({ type: 'model-request', step: i + 1, attempt: 1, messageCount: 2, toolNames: [] });
    add({
      type: 'model-response',
      step: i + 1,
      usage: { prompt, completion: 7 },
      latencyMs: 5,
      finishReason: 'stop',
      text: 'ok',
      toolCalls: [],
    });
  });
  add({
    type: 'run-finished',
    status: 'answered',
    answer: '56877',
    validation: { ok: true, detail: 'right' },
    totals: computeTotals(events),
  });
  return events;
}

const jsonl = (events: StepEvent[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

async function storeWith(comparisons: { id: string; createdAt: number; prompts: number[] }[]) {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-summary-'));
  const store = new HistoryStore(dir);
  for (const c of comparisons) {
    await store.create(meta(c.id, c.createdAt));
    await writeFile(store.runLogPath(c.id, `${c.id}-react`), jsonl(runEvents(`${c.id}-react`, c.prompts)));
    await writeFile(store.runLogPath(c.id, `${c.id}-code`), jsonl(runEvents(`${c.id}-code`, [50])));
  }
  return { dir, store };
}

const tokens = (item: { runs: readonly { totalTokens: number }[] }) => item.runs.map((r) => r.totalTokens);

/** A whole second, so setting it again gives the same mtime to the millisecond. */
const WHEN = 1_700_000_000;

/** Replace a file's bytes while keeping its size and mtime (set with pinStamp), so only a reader of its content can tell. */
async function swapContentKeepStamp(path: string, text: string): Promise<void> {
  const before = await stat(path);
  const padded = text.padEnd(before.size, ' ').slice(0, before.size);
  await writeFile(path, padded);
  await utimes(path, WHEN, WHEN);
}

const pinStamp = (path: string) => utimes(path, WHEN, WHEN);

describe('history summaries', () => {
  it('lists from the summary while it matches the files, without reading the run logs', async () => {
    const { store } = await storeWith([{ id: 'c1', createdAt: 1000, prompts: [100, 200] }]);
    await pinStamp(store.runLogPath('c1', 'c1-react'));
    const first = await store.list();
    expect(tokens(first[0])).toEqual([314, 57]);
    const summary = JSON.parse(await readFile(join(store.dir('c1'), SUMMARY_FILE), 'utf8')) as { item: unknown };
    expect(summary.item).toEqual(first[0]);
    // Same size and mtime, other bytes: a list that read the log would now see damage.
    await swapContentKeepStamp(store.runLogPath('c1', 'c1-react'), 'not json at all');
    const second = await new HistoryStore(store.dataDir).list();
    expect(second).toEqual(first);
    expect(second[0].problems).toBeUndefined();
  });

  it('rebuilds a summary that a longer log, an edited meta.json, or damage makes stale or unusable', async () => {
    const { store } = await storeWith([{ id: 'c1', createdAt: 1000, prompts: [100] }]);
    await store.list();
    // A log written by a host that was still running when the summary was made: the list follows the log.
    const more = runEvents('c1-react', [100, 300]);
    await writeFile(store.runLogPath('c1', 'c1-react'), jsonl(more));
    expect(tokens((await store.list())[0])).toEqual([414, 57]);

    const m = { ...meta('c1', 5000) };
    await writeFile(join(store.dir('c1'), 'meta.json'), JSON.stringify(m, null, 2) + '\n');
    expect((await store.list())[0].meta.createdAt).toBe(5000);

    const summaryPath = join(store.dir('c1'), SUMMARY_FILE);
    const good = await readFile(summaryPath, 'utf8');
    for (const bad of [
      '{',
      'null',
      JSON.stringify({ ...JSON.parse(good), version: 999 }),
      JSON.stringify({ ...JSON.parse(good), item: { ...JSON.parse(good).item, meta: { ...m, id: 'other' } } }),
      JSON.stringify({
        ...JSON.parse(good),
        item: { ...JSON.parse(good).item, runs: [{ runId: 'c1-react', totalTokens: 'many' }] },
      }),
      // Edited into another shape with its stamp kept: checked by hand (no schema on this path), never trusted.
      ...[
        { provider: 5 },
        { provider: { ...m.provider, simulated: 'yes' } },
        { task: { id: 'calc' } },
        { createdAt: '5000' },
        { settings: null },
        { workspaceSource: undefined },
        { runs: [{ runId: '../c1-react', mode: 'react' }, m.runs[1]] },
        { runs: [{ runId: 'c1-react', mode: 'bogus' }, m.runs[1]] },
        { runs: [m.runs[1], m.runs[0]] },
        { runs: [m.runs[0], m.runs[0]] },
        { runs: [{ ...m.runs[0], trial: 0 }, m.runs[1]] },
        { runs: [{ ...m.runs[0], variant: 'nowhere' }, m.runs[1]] },
        { variants: [{ key: 'a', label: '', mode: 'react' }] },
        { variants: {} },
      ].map((edit) =>
        JSON.stringify({ ...JSON.parse(good), item: { ...JSON.parse(good).item, meta: { ...m, ...edit } } }),
      ),
      JSON.stringify({
        ...JSON.parse(good),
        item: {
          ...JSON.parse(good).item,
          runs: JSON.parse(good).item.runs.map((r: object) => ({ ...r, column: { key: 1 } })),
        },
      }),
    ]) {
      await writeFile(summaryPath, bad);
      const [item] = await new HistoryStore(store.dataDir).list();
      expect(tokens(item)).toEqual([414, 57]);
      expect(item.meta.id).toBe('c1');
      expect(JSON.parse(await readFile(summaryPath, 'utf8'))).toEqual(JSON.parse(good)); // rebuilt, byte for byte the same content
    }
  });

  it('is not fooled by a FIFO in place of the summary, and never uses or writes one while a run is live', async () => {
    const { store } = await storeWith([{ id: 'c1', createdAt: 1000, prompts: [100] }]);
    const summaryPath = join(store.dir('c1'), SUMMARY_FILE);
    execFileSync('mkfifo', [summaryPath]);
    const listed = await store.list(); // neither hangs nor fails, and the FIFO is replaced by a real summary
    expect(tokens(listed[0])).toEqual([107, 57]);
    expect((await stat(summaryPath)).isFile()).toBe(true);

    const { store: live } = await storeWith([{ id: 'c2', createdAt: 1000, prompts: [100] }]);
    const items = await live.list((runId) => runId === 'c2-react');
    expect(items[0].runs[0].status).toBe('answered');
    await expect(stat(join(live.dir('c2'), SUMMARY_FILE))).rejects.toThrow(/ENOENT/);
    // Once nothing is live it is written, and a later list uses it.
    await live.list();
    await expect(stat(join(live.dir('c2'), SUMMARY_FILE))).resolves.toBeTruthy();
    await appendFile(live.runLogPath('c2', 'c2-react'), ''); // no change: still fresh
    expect((await live.list())[0].runs[0].status).toBe('answered');
  });

  it('finds the latest comparison by its creation time, from summaries and meta files only', async () => {
    const { store } = await storeWith([
      { id: 'b-newest', createdAt: 3000, prompts: [10] },
      { id: 'a-older', createdAt: 2000, prompts: [10] },
      { id: 'c-oldest', createdAt: 1000, prompts: [10] },
    ]);
    expect((await store.latest())?.meta.id).toBe('b-newest');
    await pinStamp(store.runLogPath('b-newest', 'b-newest-react'));
    await store.list(); // summaries written
    // Its logs are not read: a log now full of garbage does not matter to `latest`.
    await swapContentKeepStamp(store.runLogPath('b-newest', 'b-newest-react'), 'garbage');
    expect((await store.latest())?.meta.id).toBe('b-newest');
    // A newer comparison with a damaged meta.json is not the latest; the newest sound one is.
    await writeFile(join(store.dir('b-newest'), 'meta.json'), '{}');
    expect((await store.latest())?.meta.id).toBe('a-older');
    expect((await store.listDamaged()).map((d) => d.id)).toEqual(['b-newest']);
    // latest checks the summary it uses against meta.json: the newest comparison's edited meta.json is read, not
    // its stale summary, with no thorough check first.
    await store.list();
    const newestMeta = join(store.dir('a-older'), 'meta.json');
    const sound = await readFile(newestMeta, 'utf8');
    await writeFile(
      newestMeta,
      JSON.stringify({ ...JSON.parse(sound), task: { id: null, text: 'edited by hand since' } }, null, 2) + '\n',
    );
    expect((await store.latest())?.meta.task.text).toBe('edited by hand since');
    await writeFile(newestMeta, sound);
    // An edit that reorders the list (another comparison's date) is seen at once: the sweep (one stat per
    // comparison, no read) finds its meta.json changed since it was indexed.
    const olderMeta = join(store.dir('c-oldest'), 'meta.json');
    const edited = { ...JSON.parse(await readFile(olderMeta, 'utf8')), createdAt: 90_000 }; // a different size, whatever the clock's resolution
    await writeFile(olderMeta, JSON.stringify(edited, null, 2) + '\n');
    expect((await store.latest())?.meta.id).toBe('c-oldest');
    await writeFile(olderMeta, JSON.stringify({ ...edited, createdAt: 1000 }, null, 2) + '\n');
    expect((await store.latest())?.meta.id).toBe('a-older');
    // One pass gives both (the CLI's `report latest` and `history`): the same as the separate calls.
    const newest = await store.newest();
    expect(newest.meta?.id).toBe('a-older');
    expect(newest.damaged).toEqual(await store.listDamaged());
    const scanned = await store.scan();
    expect(scanned.items.map((i) => i.meta.id)).toEqual(['a-older', 'c-oldest']);
    expect(scanned.items).toEqual(await store.list());
    expect(scanned.damaged).toEqual(await store.listDamaged());
    // A folder still being set up (no meta.json yet) is neither listed nor damaged, and warns of nothing.
    await mkdir(store.dir('d-setting-up'), { recursive: true });
    const quiet: string[] = [];
    const again = new HistoryStore(dirname(store.root), (m) => quiet.push(m));
    expect((await again.scan()).items).toHaveLength(2);
    expect((await again.newest()).damaged.map((d) => d.id)).toEqual(['b-newest']);
    expect(quiet).toEqual([]);
    const empty = new HistoryStore(await mkdtemp(join(tmpdir(), 'parallax-summary-')));
    expect(await empty.latest()).toBeNull();
    expect(await empty.scan()).toEqual({ items: [], damaged: [], total: 0 });
  });
});
