/**
 * Attacks on history loading: files damaged by hand, by a crash, or by something that wrote into the data
 * folder. A damaged comparison must be listed as damaged with its reason and must never hide the others.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { createHost } from '../../../electron/host/host.js';
import { DamagedMetaError, HistoryStore } from '../../../electron/host/history-store.js';
import { runCli } from './cli-process.js';

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };

function meta(id: string, createdAt: number): ComparisonMeta {
  return {
    id,
    createdAt,
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    provider,
    runs: [{ runId: `${id}-react`, mode: 'react' }],
  };
}

function runEvents(runId: string): StepEvent[] {
  const events: StepEvent[] = [];
  const add = (e: object) => events.push({ ...e, runId, seq: events.length, t: events.length * 10 } as StepEvent);
  add({
    type: 'run-started',
    mode: 'react',
    task: { id: 'calc', text: 'x' },
    provider,
    settings: DEFAULT_SETTINGS,
    systemPrompt: 's',
    tools: [],
    startedAt: 1000,
  });
  add({ type: 'model-request', step: 1, attempt: 1, messageCount: 2, toolNames: [] });
  add({
    type: 'model-response',
    step: 1,
    usage: { prompt: 100, completion: 7 },
    latencyMs: 5,
    finishReason: 'stop',
    text: '56877',
    toolCalls: [],
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

const jsonl = (events: readonly object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

/** A data folder with one sound comparison ("good", the oldest) and the damaged ones the test adds. */
async function dataWithGood() {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-damage-'));
  const store = new HistoryStore(dataDir);
  await store.create(meta('good', 1000));
  await writeFile(store.runLogPath('good', 'good-react'), jsonl(runEvents('good-react')));
  return { dataDir, store };
}

/** A comparison folder whose meta.json holds `text` exactly. */
async function plantMeta(store: HistoryStore, id: string, text: string): Promise<void> {
  await mkdir(join(store.dir(id), 'runs'), { recursive: true });
  await writeFile(join(store.dir(id), 'meta.json'), text);
}

describe('damaged meta.json', () => {
  const damagedMeta: [string, string, RegExp][] = [
    ['empty-object', '{}', /meta\.json is not a valid comparison record \(id: .*createdAt/],
    ['null', 'null', /meta\.json is not a valid comparison record \(it holds null/],
    ['not-json', '{"id": "not-json", "runs": [', /meta\.json is not valid JSON/],
    ['runs-string', JSON.stringify({ ...meta('runs-string', 5), runs: 'react,code' }), /runs: /],
    [
      'runs-missing-mode',
      JSON.stringify({ ...meta('runs-missing-mode', 5), runs: [{ runId: 'runs-missing-mode-react' }] }),
      /runs\.0\.mode/,
    ],
    [
      'runs-escape',
      JSON.stringify({ ...meta('runs-escape', 5), runs: [{ runId: '../../../etc/passwd', mode: 'react' }] }),
      /runs\.0\.runId: not a valid run id/,
    ],
    ['other-id', JSON.stringify(meta('good', 5)), /names another comparison \("good"\)/],
    [
      'settings-bad',
      JSON.stringify({ ...meta('settings-bad', 5), settings: { maxSteps: 'many' } }),
      /settings\.maxSteps/,
    ],
  ];

  it('lists each one as damaged with its reason, and the sound comparison is still listed and opens', async () => {
    const { store } = await dataWithGood();
    for (const [id, text] of damagedMeta) await plantMeta(store, id, text);
    const listed = await store.list();
    expect(listed.map((i) => i.meta.id)).toEqual(['good']);
    expect(listed[0].runs).toEqual([
      {
        runId: 'good-react',
        mode: 'react',
        status: 'answered',
        totalTokens: 107,
        steps: 1,
        usageSource: 'reported',
        passed: true,
      },
    ]);
    const damaged = await store.listDamaged();
    expect(damaged.map((d) => d.id).sort()).toEqual(damagedMeta.map(([id]) => id).sort());
    for (const [id, , reason] of damagedMeta) {
      expect(damaged.find((d) => d.id === id)!.reason, id).toMatch(reason);
      await expect(store.open(id)).rejects.toThrow(DamagedMetaError);
      await expect(store.open(id)).rejects.toThrow(/cannot be opened; delete it from the history list/);
    }
    expect((await store.open('good')).events).toEqual(runEvents('good-react'));
  });

  it('refuses a FIFO, a folder and a huge file in place of meta.json without hanging or reading them', async () => {
    const { store } = await dataWithGood();
    await mkdir(join(store.dir('fifo'), 'runs'), { recursive: true });
    execFileSync('mkfifo', [join(store.dir('fifo'), 'meta.json')]); // opened for reading, a FIFO blocks until a writer comes
    await mkdir(join(store.dir('folder'), 'meta.json'), { recursive: true });
    await plantMeta(store, 'huge', `{"id":"huge","pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    expect((await store.list()).map((i) => i.meta.id)).toEqual(['good']);
    const damaged = Object.fromEntries((await store.listDamaged()).map((d) => [d.id, d.reason]));
    expect(damaged).toEqual({
      fifo: 'meta.json is not a regular file',
      folder: 'meta.json is not a regular file',
      huge: expect.stringMatching(/meta\.json is \d+ bytes, far more than a comparison record holds/),
    });
  });

  it('can be deleted through the host, like any comparison', async () => {
    const { dataDir, store } = await dataWithGood();
    await plantMeta(store, 'broken', '{}');
    const host = createHost({ dataDir, getApiKey: async () => null, onEvents: () => {} });
    try {
      expect((await host['history:damaged']()).map((d) => d.id)).toEqual(['broken']);
      await host['history:delete']('broken');
      expect(await host['history:damaged']()).toEqual([]);
      expect((await host['history:list']()).map((i) => i.meta.id)).toEqual(['good']);
    } finally {
      await host.close();
    }
  });
});

describe('damaged run logs', () => {
  it('skips an event line missing fields, a line of another run and a non-JSON line, listing each as a problem', async () => {
    const { store } = await dataWithGood();
    await store.create(meta('hurt', 2000));
    const events = runEvents('hurt-react');
    const { usage: _usage, ...noUsage } = events[2] as Extract<StepEvent, { type: 'model-response' }>;
    const lines = [
      JSON.stringify(events[0]),
      JSON.stringify(events[1]),
      JSON.stringify(noUsage), // a model-response without usage: its tokens would silently count as 0
      JSON.stringify({ ...events[2], runId: 'someone-else' }),
      '{"half": ',
      JSON.stringify(events[3]),
    ];
    await writeFile(store.runLogPath('hurt', 'hurt-react'), lines.join('\n') + '\n');

    const listed = await store.list();
    expect(listed.map((i) => i.meta.id)).toEqual(['hurt', 'good']);
    const hurt = listed[0];
    expect(hurt.problems).toEqual([
      expect.stringMatching(
        /^runs\/hurt-react\.jsonl: line 3 was skipped: a model-response event that does not match the event format — usage: /,
      ),
      'runs/hurt-react.jsonl: line 4 was skipped: it is an event of run "someone-else", not of hurt-react.',
      'runs/hurt-react.jsonl: line 5 is not JSON (9 characters); it was skipped.',
    ]);
    expect(listed[1].problems).toBeUndefined();
    // It still opens: the sound events are kept, the damage is among the warnings.
    const opened = await store.open('hurt');
    expect(opened.events.map((e) => e.seq)).toEqual([0, 1, 3]);
    expect(opened.warnings.filter((w) => /skipped/.test(w))).toHaveLength(3);
  });

  it('reports a run log that is a FIFO or a folder as unreadable instead of hanging', async () => {
    const { store } = await dataWithGood();
    await store.create(meta('pipe', 2000));
    execFileSync('mkfifo', [store.runLogPath('pipe', 'pipe-react')]);
    await store.create(meta('dir', 3000));
    await mkdir(store.runLogPath('dir', 'dir-react'));
    const listed = await store.list();
    expect(listed.map((i) => i.meta.id)).toEqual(['dir', 'pipe', 'good']);
    expect(listed[0].problems).toEqual([
      'runs/dir-react.jsonl: could not be read (it is not a regular file); its events are missing.',
    ]);
    expect(listed[1].problems).toEqual([
      'runs/pipe-react.jsonl: could not be read (it is not a regular file); its events are missing.',
    ]);
    expect(listed[1].runs[0].status).toBe('interrupted');
  });

  it('tells a torn last line (a crash mid-write: a warning) from a bad line that was written whole (damage)', async () => {
    const { store } = await dataWithGood();
    await store.create(meta('torn', 2000));
    const events = runEvents('torn-react');
    await writeFile(
      store.runLogPath('torn', 'torn-react'),
      jsonl(events.slice(0, 3)) + JSON.stringify(events[3]).slice(0, 30),
    );
    await store.create(meta('whole', 3000));
    await writeFile(
      store.runLogPath('whole', 'whole-react'),
      jsonl(events.slice(0, 3).map((e) => ({ ...e, runId: 'whole-react' }))) + '{"type": "run-fin\n',
    );
    const [whole, torn] = await store.list();
    expect(torn.problems).toBeUndefined();
    expect(
      (await store.open('torn')).warnings.some((w) => /torn last line .* the 3 events before it are intact/.test(w)),
    ).toBe(true);
    expect(whole.problems).toEqual(['runs/whole-react.jsonl: line 4 is not JSON (17 characters); it was skipped.']);
  });
});

describe('the CLI with damaged history', () => {
  it('`parallax history` lists the sound comparisons and each damaged one with its reason', async () => {
    const { dataDir, store } = await dataWithGood();
    await plantMeta(store, 'broken', '{}');
    await plantMeta(store, 'nulled', 'null');
    const env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    const text = await runCli(['history'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^good\s/m);
    expect(text.stdout).toMatch(/^broken {2}DAMAGED: meta\.json is not a valid comparison record \(id: /m);
    expect(text.stdout).toMatch(/^nulled {2}DAMAGED: meta\.json is not a valid comparison record \(it holds null/m);
    expect(text.stdout).toContain(`rm -r ${JSON.stringify(store.dir('broken'))}`);
    expect(text.stdout).toMatch(/1 comparison and 2 damaged in /);
    const json = await runCli(['history', '--json'], env);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { meta: { id: string } }[]).map((i) => i.meta.id)).toEqual(['good']);
    expect(json.stderr).toMatch(/damaged: broken: meta\.json is not/);
  });

  it('`parallax report latest` reports the newest sound comparison and names the damaged newer one', async () => {
    const { dataDir, store } = await dataWithGood();
    await plantMeta(store, 'broken', JSON.stringify({ ...meta('broken', Date.now()), runs: null }));
    const out = await runCli(['report', 'latest', '--format', 'json'], { ...process.env, PARALLAX_DATA_DIR: dataDir });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).comparison.id).toBe('good');
    expect(out.stderr).toMatch(
      /skipped damaged comparison broken: meta\.json is not a valid comparison record \(runs: /,
    );
    expect(await readFile(join(store.dir('broken'), 'meta.json'), 'utf8')).toContain('"runs":null'); // nothing was "repaired"
  });
});
