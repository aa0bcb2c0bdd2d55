import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { INDEX_FILE } from '../../../electron/host/history-index.js';
import { ORDER_FILE } from '../../../electron/host/history-order.js';
import { generate } from '../../helpers/history-seed.js';
import { runCli } from './cli-process.js';

/** An hour ago, in whole seconds (utimes sets it to the nanosecond, so putting it back gives the same stamp). */
const PAST = Math.floor(Date.now() / 1000) - 3600;

/** A history written earlier: `count` comparisons (cmp-000000 oldest … newest), every file's time an hour ago. */
async function earlier(count: number): Promise<{ dataDir: string; root: string; store: HistoryStore }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-order-'));
  generate(dataDir, count);
  const root = join(dataDir, 'comparisons');
  await backdate(root);
  return { dataDir, root, store: new HistoryStore(dataDir) };
}

let backdated = 0;
/**
 * Every meta.json and the comparisons folder itself, about an hour old: a second older each time, so the
 * folder's stamp is never one an order was written with (putting a time back exactly is a test of its own).
 */
async function backdate(root: string): Promise<void> {
  const when = PAST - ++backdated;
  for (const name of await readdir(root))
    await utimes(join(root, name, 'meta.json'), when, when).catch(() => undefined);
  await utimes(root, when, when);
}

const ids = (page: { items: readonly { meta: { id: string } }[] }) => page.items.map((i) => i.meta.id);
const id = (n: number) => `cmp-${String(n).padStart(6, '0')}`;
const orderIds = async (dataDir: string): Promise<string[]> =>
  (JSON.parse(await readFile(join(dataDir, ORDER_FILE), 'utf8')) as { ids: string }).ids.split('\n');

describe('history order (the quick path of unfiltered pages and latest)', () => {
  it('serves unfiltered pages and latest from the order without reading the index or the folder names', async () => {
    const { dataDir, store } = await earlier(40);
    expect(ids(await store.page({ limit: 10 }))[0]).toBe(id(39)); // the thorough path: index and order written
    expect(await orderIds(dataDir)).toEqual(Array.from({ length: 40 }, (_, i) => id(39 - i)));
    // The index spoiled: a path that read it would rebuild it. The quick path never looks.
    await writeFile(join(dataDir, INDEX_FILE), 'garbage');
    const page = await store.page({ limit: 10 });
    expect(ids(page)).toEqual(Array.from({ length: 10 }, (_, i) => id(39 - i)));
    expect({ total: page.total, stored: page.stored, nextOffset: page.nextOffset }).toEqual({
      total: 40,
      stored: 40,
      nextOffset: 10,
    });
    expect((await store.page({ offset: 35, limit: 10 })).items.map((i) => i.meta.id)).toEqual([
      id(4),
      id(3),
      id(2),
      id(1),
      id(0),
    ]);
    expect((await store.latest())?.meta.id).toBe(id(39));
    expect(await store.listDamaged()).toEqual([]);
    expect(await readFile(join(dataDir, INDEX_FILE), 'utf8')).toBe('garbage');
    // A search needs the index: it is rebuilt, and the answer is the same.
    expect((await store.page({ search: 'log-stats', limit: 3 })).total).toBe(40);
    expect(await readFile(join(dataDir, INDEX_FILE), 'utf8')).not.toBe('garbage');
  });

  /** Comparison `n`'s meta.json dated 10^11 ms later (the same number of digits: the same size, only its time tells). */
  async function redate(root: string, n: number): Promise<() => Promise<void>> {
    const file = join(root, id(n), 'meta.json');
    const text = await readFile(file, 'utf8');
    const createdAt = (JSON.parse(text) as { createdAt: number }).createdAt;
    const later = createdAt + 10 ** 11;
    expect(String(later)).toHaveLength(String(createdAt).length);
    await writeFile(file, text.replace(String(createdAt), String(later)));
    return () => writeFile(file, text);
  }

  it('sweeping now (the default): a date edited by hand in another comparison is seen at once, in the list and in latest', async () => {
    const { dataDir, root, store } = await earlier(30);
    await store.page();
    const putBack = await redate(root, 3);
    expect((await store.latest())?.meta.id).toBe(id(3));
    expect(ids(await store.page({ limit: 2 }))).toEqual([id(3), id(29)]);
    expect((await orderIds(dataDir))[0]).toBe(id(3));
    // And back, an hour old again: the order follows once more (the edit is newer than the order it replaced).
    await putBack();
    expect((await store.latest())?.meta.id).toBe(id(29));
    expect(ids(await store.page({ limit: 40 }))).toEqual(Array.from({ length: 30 }, (_, i) => id(29 - i)));
  });

  it("one-shot (no sweep, the CLI's rule): list and latest agree; a hand-edited date is seen at the next thorough read, an added or removed comparison at once", async () => {
    const { root, dataDir } = await earlier(30);
    const oneShot = () =>
      new HistoryStore(
        dataDir,
        () => {},
        () => {},
        'none',
      );
    await oneShot().page();
    const putBack = await redate(root, 3);
    // Not swept: the order is the last thorough read's, for the list and latest alike.
    expect((await oneShot().latest())?.meta.id).toBe(id(29));
    expect(ids(await oneShot().page({ limit: 2 }))).toEqual([id(29), id(28)]);
    // Each comparison shown is read as it is now: id(3) on its page carries the edited date.
    const shown = (await oneShot().page({ offset: 26, limit: 1 })).items[0];
    expect(shown.meta.id).toBe(id(3));
    expect(shown.meta.createdAt).toBeGreaterThan(Date.UTC(2029, 0, 1));
    // The refresh (`parallax history --refresh`) is a thorough read: both follow the edit from then on.
    await oneShot().reconcile();
    expect((await oneShot().latest())?.meta.id).toBe(id(3));
    expect(ids(await oneShot().page({ limit: 2 }))).toEqual([id(3), id(29)]);
    // Put back, then a comparison removed: the folder changed, so the thorough read sees both at once.
    await putBack();
    expect((await oneShot().latest())?.meta.id).toBe(id(3));
    await rm(join(root, id(29)), { recursive: true });
    expect((await oneShot().latest())?.meta.id).toBe(id(28));
    expect(ids(await oneShot().page({ limit: 2 }))).toEqual([id(28), id(27)]);
    // Damaged in place (the folder unchanged): latest skips it and lists it as damaged.
    await backdate(root);
    await oneShot().page();
    await writeFile(join(root, id(28), 'meta.json'), '{ "id": ');
    const { meta, damaged } = await oneShot().newest();
    expect(meta?.id).toBe(id(27));
    expect(damaged.map((d) => d.id)).toEqual([id(28)]);
  });

  it('in a host (sweep after answering): the page goes out at once, and the next one follows an edit the sweep found', async () => {
    const { root, dataDir } = await earlier(30);
    const host = new HistoryStore(
      dataDir,
      () => {},
      () => {},
      'after',
    );
    await host.page();
    await host.swept();
    const file = join(root, id(4), 'meta.json');
    const text = await readFile(file, 'utf8');
    const createdAt = String((JSON.parse(text) as { createdAt: number }).createdAt);
    await writeFile(file, text.replace(createdAt, String(Number(createdAt) + 10 ** 11)));
    // Served from the order as it was; the sweep that follows finds the edit.
    expect(ids(await host.page({ limit: 1 }))).toEqual([id(29)]);
    await host.swept();
    expect(ids(await host.page({ limit: 2 }))).toEqual([id(4), id(29)]);
    expect((await host.newest()).meta?.id).toBe(id(4));
    // A folder removed is never shown, sweep or not: the folder's stamp changed.
    await rm(join(root, id(4)), { recursive: true });
    expect(ids(await host.page({ limit: 1 }))).toEqual([id(29)]);
    expect((await host.page()).total).toBe(29);
  });

  it.each(['now', 'none'] as const)(
    'never shows a comparison whose folder was removed by hand, nor hides one added, a damaged one or one set up late (sweep: %s)',
    async (sweep) => {
      const { dataDir, root } = await earlier(12);
      const store = new HistoryStore(
        dataDir,
        () => {},
        () => {},
        sweep,
      );
      await store.page();
      // Removed, and the folder's time put back as it was (its stamp unchanged): the sweep finds meta.json gone.
      const folderTime = PAST - backdated;
      await rm(join(root, id(11)), { recursive: true });
      await utimes(root, folderTime, folderTime);
      expect((await store.latest())?.meta.id).toBe(id(10));
      expect((await store.page()).total).toBe(11);
      // Added by hand (a folder moved in from elsewhere, its files an hour old).
      const other = await mkdtemp(join(tmpdir(), 'parallax-order-other-'));
      generate(other, 13);
      await backdate(join(other, 'comparisons'));
      await rename(join(other, 'comparisons', id(12)), join(root, id(12)));
      expect((await store.latest())?.meta.id).toBe(id(12));
      await backdate(root);
      await store.page();
      // Damaged in place: listed as damaged at once, and back when mended.
      const meta5 = join(root, id(5), 'meta.json');
      const sound = await readFile(meta5, 'utf8');
      await writeFile(meta5, '{ "id": ');
      const damaged = await store.page({ limit: 50 });
      expect(damaged.total).toBe(11);
      expect(damaged.damaged.map((d) => d.id)).toEqual([id(5)]);
      expect(ids(damaged)).not.toContain(id(5));
      await writeFile(meta5, sound);
      expect((await store.page({ limit: 50 })).total).toBe(12);
      // A folder still being set up when the order was written, whose meta.json comes later (even with an old time).
      await mkdir(join(root, id(13), 'runs'), { recursive: true });
      await backdate(root);
      expect((await store.page()).total).toBe(12);
      expect((JSON.parse(await readFile(join(dataDir, ORDER_FILE), 'utf8')) as { pending: string }).pending).toBe(
        id(13),
      );
      generate(other, 14);
      await writeFile(join(root, id(13), 'meta.json'), await readFile(join(other, 'comparisons', id(13), 'meta.json')));
      await utimes(join(root, id(13), 'meta.json'), PAST, PAST);
      expect((await store.latest())?.meta.id).toBe(id(13));
      expect((await store.page()).total).toBe(13);
    },
  );

  it('ignores an order file that is torn, hostile or of a folder since replaced, and writes a sound one', async () => {
    const { dataDir, root, store } = await earlier(8);
    await store.page();
    const path = join(dataDir, ORDER_FILE);
    const good = await readFile(path, 'utf8');
    const order = JSON.parse(good) as { ids: string; folder: string };
    for (const text of [
      good.slice(0, good.length / 2),
      JSON.stringify({ ...order, ids: `../../escape\n${order.ids}` }),
      JSON.stringify({ ...order, ids: 'cmp-000001' }).replace('"version":1', '"version":0'),
    ]) {
      await writeFile(path, text);
      expect(ids(await store.page({ limit: 3 }))).toEqual([id(7), id(6), id(5)]);
      expect((await store.latest())?.meta.id).toBe(id(7));
      expect(await readFile(path, 'utf8')).not.toBe(text);
    }
    // A stale order from before the folder was swapped for another (a restored backup): not this folder's.
    const stale = await readFile(path, 'utf8');
    await rename(root, `${root}.old`);
    await mkdir(root);
    await backdate(root);
    await writeFile(path, stale);
    expect((await store.page()).total).toBe(0);
    expect(await store.latest()).toBeNull();
  });

  it('loses no comparison while three other processes write the same history and list it', async () => {
    const { dataDir, store } = await earlier(20);
    await store.page();
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const writer = fileURLToPath(new URL('../../helpers/history-writer.ts', import.meta.url));
    const children = ['a', 'b', 'c'].map((prefix) => {
      const child = spawn(process.execPath, ['--import', tsx, writer, dataDir, prefix, '8'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
        child.on('close', (code) => resolve({ code, out, err })),
      );
    });
    // Meanwhile this process lists too: the count it sees never goes down (nothing is ever lost, even for a moment).
    let seen = 20;
    let done = false;
    const all = Promise.all(children).finally(() => (done = true));
    while (!done) {
      const { stored } = await store.page({ limit: 5 });
      expect(stored).toBeGreaterThanOrEqual(seen);
      seen = stored;
    }
    for (const child of await all) {
      expect(child.err).toBe('');
      expect(child.code).toBe(0);
      const counts = child.out.trim().split('\n').map(Number);
      expect(counts).toHaveLength(8);
      expect(counts.every((n, i) => i === 0 || n >= counts[i - 1])).toBe(true);
    }
    const expected = [
      ...['a', 'b', 'c'].flatMap((p) => Array.from({ length: 8 }, (_, i) => `${p}-${i}`)),
      ...Array.from({ length: 20 }, (_, i) => id(i)),
    ].sort();
    expect(ids(await store.page({ limit: 200 })).sort()).toEqual(expected);
    // Once settled, the order that lands names every one of them.
    await backdate(join(dataDir, 'comparisons'));
    await store.page();
    expect((await orderIds(dataDir)).sort()).toEqual(expected);
    expect(ids(await store.page({ limit: 200 })).sort()).toEqual(expected);
  });

  it('`parallax report latest` names the comparison `parallax history` lists first; both see a hand-edited date after `history --refresh`', async () => {
    const { dataDir, root } = await earlier(25);
    const env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    const latest = async () => {
      const report = await runCli(['report', 'latest', '--format', 'json'], env);
      expect(report.code, report.stderr).toBe(0);
      return (JSON.parse(report.stdout) as { comparison: { id: string } }).comparison.id;
    };
    expect((await runCli(['history'], env)).stdout).toMatch(new RegExp(`^${id(24)} `));
    await redate(root, 7);
    // One rule for both one-shot commands: the order of the last thorough read (each comparison shown is current).
    expect((await runCli(['history', '--limit', '1'], env)).stdout).toMatch(new RegExp(`^${id(24)} `));
    expect(await latest()).toBe(id(24));
    const refreshed = await runCli(['history', '--refresh', '--limit', '1'], env);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toMatch(new RegExp(`^${id(7)} `));
    expect(await latest()).toBe(id(7));
    expect((await runCli(['history', '--limit', '1'], env)).stdout).toMatch(new RegExp(`^${id(7)} `));
    // A comparison removed is seen at once by both, no refresh needed.
    await rm(join(root, id(7)), { recursive: true });
    expect(await latest()).toBe(id(24));
    expect((await runCli(['history', '--limit', '1'], env)).stdout).toMatch(new RegExp(`^${id(24)} `));
  });
});
