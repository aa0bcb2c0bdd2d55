import { appendFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { parseRunLog } from '../../../electron/host/run-log-reader.js';

function meta(id: string, createdAt = Date.now()): ComparisonMeta {
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

function runEvents(runId: string, prompts: number[], finish: boolean): StepEvent[] {
  const events: StepEvent[] = [];
  const add = (e: object) => events.push({ ...e, runId, seq: events.length, t: events.length * 10 } as StepEvent);
  add({
    type: 'run-started',
    mode: 'react',
    task: { id: 'calc', text: 'x' },
    provider: meta('x').provider,
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
  if (finish)
    add({
      type: 'run-finished',
      status: 'answered',
      answer: '56877',
      validation: { ok: true, detail: 'right' },
      totals: computeTotals(events),
    });
  return events;
}

async function newStore() {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-store-'));
  const warnings: string[] = [];
  return { dir, warnings, store: new HistoryStore(dir, (m) => warnings.push(m)) };
}

describe('HistoryStore', () => {
  it('gives back exactly the events appended, across a new store instance on the same folder', async () => {
    const { dir, store } = await newStore();
    const m = meta('c1');
    await store.create(m);
    const react = runEvents('c1-react', [100, 200], true);
    const code = runEvents('c1-code', [50], true);
    const logR = store.openRunLog('c1', 'c1-react');
    const logC = store.openRunLog('c1', 'c1-code');
    logR.append(react.slice(0, 2));
    logC.append(code);
    logR.append(react.slice(2));
    await Promise.all([logR.finish(), logC.finish()]);

    const reopened = new HistoryStore(dir);
    const stored = await reopened.open('c1');
    expect(stored.meta).toEqual(m);
    expect(stored.events).toEqual([...react, ...code]);
    expect(stored.warnings).toEqual([]);
    const list = await reopened.list();
    expect(list).toHaveLength(1);
    expect(list[0].runs).toEqual([
      {
        runId: 'c1-react',
        mode: 'react',
        status: 'answered',
        totalTokens: 314,
        steps: 2,
        usageSource: 'reported',
        passed: true,
      },
      {
        runId: 'c1-code',
        mode: 'code',
        status: 'answered',
        totalTokens: 57,
        steps: 1,
        usageSource: 'reported',
        passed: true,
      },
    ]);
  });

  it('skips a torn last line with a warning and keeps the events before it', async () => {
    const { store } = await newStore();
    await store.create(meta('c2'));
    const events = runEvents('c2-react', [100, 200], false);
    const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
    await writeFile(
      store.runLogPath('c2', 'c2-react'),
      text + JSON.stringify(runEvents('c2-react', [1, 2, 3], true).at(-1)).slice(0, 40),
    );
    const stored = await store.open('c2');
    expect(stored.events).toEqual(events);
    expect(stored.warnings.some((w) => /torn last line/.test(w) && /5 events before it are intact/.test(w))).toBe(true);
  });

  it('loads a run without run-finished as interrupted and one with no event as never started, each with a warning saying so', async () => {
    const { store } = await newStore();
    await store.create(meta('c3'));
    const log = store.openRunLog('c3', 'c3-code');
    log.append(runEvents('c3-code', [10, 20, 30], false));
    await log.finish();
    const [item] = await store.list();
    expect(item.runs.map((r) => r.status)).toEqual(['never-started', 'interrupted']);
    expect(item.runs[1]).toMatchObject({ steps: 3, totalTokens: 60 + 21 });
    const stored = await store.open('c3');
    expect(stored.warnings.filter((w) => /shown as interrupted/.test(w))).toEqual([expect.stringContaining('c3-code')]);
    expect(stored.warnings.filter((w) => /never started/.test(w))).toEqual([expect.stringContaining('c3-react')]);
    expect(stored.interruptedRunIds).toEqual(stored.meta.runs.map((r) => r.runId));
    // The report says "never started" for it, not "interrupted".
    const { prepareReport } = await import('../../../electron/host/reports/report-data.js');
    expect(prepareReport(stored).runs.map((r) => r.summary.status)).toEqual(['never-started', 'interrupted']);
    // A run still going in this host is running, not interrupted.
    const live = await store.list((runId) => runId === 'c3-code');
    expect(live[0].runs.map((r) => r.status)).toEqual(['never-started', 'running']);
    expect((await store.open('c3', (runId) => runId === 'c3-code')).interruptedRunIds).toEqual(['c3-react']);
  });

  it('warns about unreadable middle lines and seq gaps without failing', () => {
    const events = runEvents('r', [1, 2], true);
    const lines = events.map((e) => JSON.stringify(e));
    lines.splice(2, 1, '{not json');
    const loaded = parseRunLog(lines.join('\n') + '\n', 'r', 'r.jsonl');
    expect(loaded.events).toHaveLength(events.length - 1);
    expect(loaded.problems).toEqual(['r.jsonl: line 3 is not JSON (9 characters); it was skipped.']);
    expect(loaded.warnings).toEqual(['r.jsonl: seq jumps from 1 to 3 at line 4; some events are missing.']);
  });

  it('lists newest first, lists a damaged meta.json apart, skips folders still being set up, deletes, and refuses path tricks', async () => {
    const { dir, store, warnings } = await newStore();
    await store.create(meta('old', 1000));
    await store.create(meta('new', 2000));
    await writeFile(join(dir, 'comparisons', 'new', 'runs', 'junk.txt'), 'x');
    await (await import('node:fs/promises')).mkdir(join(dir, 'comparisons', 'broken'));
    await writeFile(join(dir, 'comparisons', 'broken', 'meta.json'), '{');
    expect((await store.list()).map((c) => c.meta.id)).toEqual(['new', 'old']);
    await (await import('node:fs/promises')).mkdir(join(dir, 'comparisons', 'pending', 'runs'), { recursive: true });
    expect((await store.list()).map((c) => c.meta.id)).toEqual(['new', 'old']);
    expect(await store.listDamaged()).toEqual([
      { id: 'broken', reason: 'meta.json is not valid JSON', modifiedAt: expect.any(Number) },
    ]);
    expect(warnings.some((w) => w.includes('pending'))).toBe(false);
    await store.delete('old');
    expect(await readdir(join(dir, 'comparisons'))).not.toContain('old');
    await expect(store.delete('old')).rejects.toThrow(/No comparison "old"/);
    await expect(store.open('../etc')).rejects.toThrow(/not a valid comparison id/);
    await expect(store.open('missing')).rejects.toThrow(/refresh the history list/);
  });

  it('appends in arrival order even when batches are queued faster than the disk writes', async () => {
    const { store } = await newStore();
    await store.create(meta('c4'));
    const events = runEvents(
      'c4-react',
      Array.from({ length: 300 }, (_, i) => i),
      true,
    );
    const log = store.openRunLog('c4', 'c4-react');
    for (const e of events) log.append([e]);
    await log.finish();
    log.append(events.slice(0, 1)); // after finish: ignored
    await appendFile(store.runLogPath('c4', 'c4-code'), '');
    const stored = await store.open('c4');
    expect(stored.events.filter((e) => e.runId === 'c4-react')).toEqual(events);
  });
});
