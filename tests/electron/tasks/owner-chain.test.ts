import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import { errorsByService } from '../../../electron/tasks/builtin/rules.js';
import { generateOwnerChain } from '../../../electron/tasks/builtin/owner-chain.js';

const dirs: string[] = [];
async function fixture(seed: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parallax-owner-chain-'));
  dirs.push(dir);
  await prepareFixture('owner-chain', dir, seed);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const task = { id: 'owner-chain', text: 'owner-chain' };

/** The chain followed by hand from the written files. */
async function truth(dir: string): Promise<{ service: string; name: string }> {
  const counts = [...errorsByService(await readFile(path.join(dir, 'incidents.log'), 'utf8'))].sort(
    (a, b) => b[1] - a[1],
  );
  const service = counts[0][0];
  const owner = (JSON.parse(await readFile(path.join(dir, 'services', `${service}.json`), 'utf8')) as { owner: string })
    .owner;
  const name = (JSON.parse(await readFile(path.join(dir, 'people', `${owner}.json`), 'utf8')) as { name: string }).name;
  return { service, name };
}

describe('owner-chain fixture', () => {
  it('is the same for the same seed and differs across seeds; one service clearly leads on ERROR lines', () => {
    expect(generateOwnerChain(5)).toEqual(generateOwnerChain(5));
    const leaders = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const files = generateOwnerChain(seed);
      const counts = [...errorsByService(files.find((f) => f.name === 'incidents.log')!.content).values()].sort(
        (a, b) => b - a,
      );
      expect(counts[0]).toBeGreaterThan(counts[1] + 1);
      // Read whole by ReAct: under the default truncation limit.
      expect(files.find((f) => f.name === 'incidents.log')!.content.length).toBeLessThan(
        DEFAULT_SETTINGS.truncateChars,
      );
      // Every service has its own owner, and each owner a person file with a distinct name.
      const owners = files
        .filter((f) => f.name.startsWith('services/'))
        .map((f) => (JSON.parse(f.content) as { owner: string }).owner);
      expect(new Set(owners).size).toBe(owners.length);
      for (const id of owners) expect(files.some((f) => f.name === `people/${id}.json`)).toBe(true);
      const names = files
        .filter((f) => f.name.startsWith('people/'))
        .map((f) => (JSON.parse(f.content) as { name: string }).name);
      expect(new Set(names).size).toBe(names.length);
      leaders.add(JSON.stringify(counts));
    }
    expect(leaders.size).toBeGreaterThan(10);
  });

  it('counts a line only when its level field is ERROR', () => {
    const log =
      '2026-11-30T06:00:00Z ERROR [billing] x\n2026-11-30T06:00:01Z INFO  [billing] error rate back to normal\n2026-11-30T06:00:02Z WARN  [search] ERROR seen upstream\n';
    expect([...errorsByService(log)]).toEqual([['billing', 1]]);
  });
});

describe('owner-chain validator', () => {
  it('accepts the owner of the leading service and rejects other people, also when named beside the owner', async () => {
    const dir = await fixture(11);
    const { name } = await truth(dir);
    expect(await validateAnswer(task, `The owner is ${name}.`, { workspace: dir })).toMatchObject({ ok: true });
    const people = generateOwnerChain(11)
      .filter((f) => f.name.startsWith('people/'))
      .map((f) => (JSON.parse(f.content) as { name: string }).name);
    const other = people.find((n) => n !== name)!;
    expect(await validateAnswer(task, `The owner is ${other}.`, { workspace: dir })).toMatchObject({ ok: false });
    const both = await validateAnswer(task, `Either ${name} or ${other}.`, { workspace: dir });
    expect(both?.ok).toBe(false);
    expect(both?.detail).toContain(other);
  });

  it('follows the workspace as it is at validation time, not the seed', async () => {
    const dir = await fixture(3);
    const { service, name } = await truth(dir);
    const config = JSON.parse(await readFile(path.join(dir, 'services', `${service}.json`), 'utf8')) as {
      owner: string;
    };
    await writeFile(
      path.join(dir, 'people', `${config.owner}.json`),
      JSON.stringify({ id: config.owner, name: 'Zed Replaced' }),
    );
    expect(await validateAnswer(task, `The owner is ${name}.`, { workspace: dir })).toMatchObject({ ok: false });
    expect(await validateAnswer(task, 'The owner is Zed Replaced.', { workspace: dir })).toMatchObject({ ok: true });
  });

  it('says what went wrong when the chain cannot be followed', async () => {
    const dir = await fixture(4);
    await rm(path.join(dir, 'incidents.log'));
    const v = await validateAnswer(task, 'Someone', { workspace: dir });
    expect(v?.ok).toBe(false);
    expect(v?.detail).toMatch(/Could not follow the chain/);
  });
});
