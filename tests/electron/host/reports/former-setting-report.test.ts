/**
 * A comparison stored before the `history` knob became `toolHistory`: opened from disk (meta.json and the run's
 * event log both say `history`), it carries the setting under the new name, its reports show it, and a meta
 * written back uses the new key.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { computeTotals } from '../../../../shared/summary.js';
import { HistoryStore } from '../../../../electron/host/history-store.js';
import { buildReport } from '../../../../electron/host/reports/index.js';

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };
const { toolHistory: _now, ...rest } = DEFAULT_SETTINGS;
/** The settings as a version before the rename wrote them. */
const OLD_SETTINGS = { ...rest, history: 'window:2' };
const ID = 'cmp-before-rename';
const RUN = 'run-before-rename';

function oldLog(): string {
  const out: StepEvent[] = [];
  const add = (e: object) => out.push({ ...e, runId: RUN, seq: out.length, t: out.length } as StepEvent);
  add({
    type: 'run-started',
    mode: 'react',
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    provider,
    settings: OLD_SETTINGS,
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
    text: '56877',
    toolCalls: [],
  });
  add({ type: 'run-finished', status: 'answered', answer: '56877', validation: null, totals: computeTotals(out) });
  return out.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

let dataDir = '';
let store: HistoryStore;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'parallax-former-setting-'));
  store = new HistoryStore(dataDir, () => {});
  await store.create({
    id: ID,
    createdAt: 1,
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    provider,
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    runs: [{ runId: RUN, mode: 'react' }],
  });
  // meta.json and the log exactly as the older version wrote them.
  const metaFile = join(store.dir(ID), 'meta.json');
  const meta = JSON.parse(await readFile(metaFile, 'utf8')) as Record<string, unknown>;
  await writeFile(metaFile, JSON.stringify({ ...meta, settings: OLD_SETTINGS }, null, 2) + '\n');
  await writeFile(store.runLogPath(ID, RUN), oldLog());
  await store.finishRecording(ID, new Map());
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('a comparison stored under the former knob name', () => {
  it('opens with the setting under its new name, in the meta and in the run-started', async () => {
    const stored = await store.open(ID);
    expect(stored.meta.settings.toolHistory).toBe('window:2');
    expect(stored.meta.settings).not.toHaveProperty('history');
    const started = stored.events.find((e) => e.type === 'run-started');
    expect(started?.type === 'run-started' && started.settings.toolHistory).toBe('window:2');
  });

  it('its reports name the setting and its value', async () => {
    const stored = await store.open(ID);
    const md = (await buildReport(stored, 'md')).content;
    expect(md).toContain('tool-result history window:2 (the tool results of the last 2 steps are sent whole');
    const json = JSON.parse((await buildReport(stored, 'json')).content) as { comparison: { settings: object } };
    expect(json.comparison.settings).toMatchObject({ toolHistory: 'window:2' });
    expect(json.comparison.settings).not.toHaveProperty('history');
  });

  it("the history list's quick path reads a summary written before the rename under the new name", async () => {
    await store.refreshSummary(ID);
    const file = join(store.dir(ID), 'summary.json');
    const summary = JSON.parse(await readFile(file, 'utf8')) as {
      item: { meta: { settings: Record<string, unknown> } };
    };
    const { toolHistory, ...others } = summary.item.meta.settings;
    expect(toolHistory).toBe('window:2');
    // As an older version wrote it: the meta's copy under the former name (meta.json itself unchanged).
    summary.item.meta.settings = { ...others, history: toolHistory };
    await writeFile(file, JSON.stringify(summary) + '\n');
    const latest = await store.latest();
    expect(latest?.meta.settings.toolHistory).toBe('window:2');
    expect(latest?.meta.settings).not.toHaveProperty('history');
    const listed = (await store.page({ limit: 5 })).items.find((i) => i.meta.id === ID);
    expect(listed?.meta.settings.toolHistory).toBe('window:2');
  });

  it('a meta written back uses the new key', async () => {
    await store.writeMeta(await store.readMeta(ID));
    const written = JSON.parse(await readFile(join(store.dir(ID), 'meta.json'), 'utf8')) as {
      settings: Record<string, unknown>;
    };
    expect(written.settings.toolHistory).toBe('window:2');
    expect(written.settings).not.toHaveProperty('history');
  });
});
