/**
 * A separate process writing the same history (as the app, the web host and the CLI do at once): it stores
 * `count` finished comparisons named `<prefix>-<n>` through the store, each refreshed as the host does when a
 * comparison ends, and pages the list after each. Usage: history-writer.ts <dataDir> <prefix> <count>.
 * Prints one line per page it read: its `stored` count.
 */
import { writeFile } from 'node:fs/promises';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import { computeTotals } from '../../shared/summary.js';
import { HistoryStore } from '../../electron/host/history-store.js';

const [dataDir, prefix, count] = process.argv.slice(2);
const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };
const store = new HistoryStore(dataDir);

function log(runId: string): string {
  const out: StepEvent[] = [];
  const add = (e: object) => out.push({ ...e, runId, seq: out.length, t: out.length } as StepEvent);
  add({
    type: 'run-started',
    mode: 'react',
    task: { id: 'calc', text: 'x' },
    provider,
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
  add({ type: 'run-finished', status: 'answered', answer: '56877', validation: null, totals: computeTotals(out) });
  return out.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

for (let i = 0; i < Number(count); i++) {
  const id = `${prefix}-${i}`;
  await store.create({
    id,
    createdAt: Date.now(),
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    provider,
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    runs: [{ runId: `${id}-r`, mode: 'react' }],
  });
  await writeFile(store.runLogPath(id, `${id}-r`), log(`${id}-r`));
  await store.finishRecording(id, new Map());
  await store.refreshSummary(id);
  process.stdout.write(`${(await store.page({ limit: 5 })).stored}\n`);
}
