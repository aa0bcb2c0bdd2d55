/**
 * History loading with every line checked against the StepEvent schema and read as a stream: events checked
 * per second, `list` and `open` of a long comparison (2 runs × 50,000 events), and a log with a few 12 MB
 * lines (what a program printing huge strings leaves), where the list keeps only the events it needs.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_SETTINGS } from '../shared/run-spec.js';
import type { StepEvent, StepEventInput } from '../shared/step-event.js';
import { checkStepEvent } from '../shared/step-event-schema.js';
import { computeTotals } from '../shared/summary.js';
import { HistoryStore } from '../electron/host/history-store.js';

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:0/v1', model: 'sim', simulated: true };
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

function runEvents(runId: string, count: number, outputBytes: number): StepEvent[] {
  const out: StepEvent[] = [];
  const push = (e: StepEventInput) => out.push({ ...e, runId, seq: out.length, t: out.length } as StepEvent);
  push({
    type: 'run-started',
    mode: 'react',
    task: { id: 'log-stats', text: 't' },
    provider,
    settings: DEFAULT_SETTINGS,
    systemPrompt: 's',
    tools: [],
    startedAt: 0,
  });
  const output = 'x'.repeat(outputBytes);
  for (let step = 1; out.length < count - 1; step++) {
    push({ type: 'model-request', step, attempt: 1, messageCount: step * 2, toolNames: ['read_file'] });
    push({
      type: 'model-response',
      step,
      usage: { prompt: 100 * step, completion: 10 },
      latencyMs: 5,
      finishReason: 'tool_calls',
      text: '',
      toolCalls: [{ id: `c${step}`, name: 'read_file', arguments: '{"path":"a.txt"}' }],
    });
    push({
      type: 'tool-finished',
      step,
      callId: `c${step}`,
      name: 'read_file',
      output,
      rawSize: output.length,
      truncated: false,
      durationMs: 1,
      error: null,
    });
  }
  push({ type: 'run-finished', status: 'answered', answer: 'done', validation: null, totals: computeTotals(out) });
  return out;
}

async function storeWith(dataDir: string, id: string, runs: StepEvent[][]): Promise<number> {
  const store = new HistoryStore(dataDir);
  await store.create({
    id,
    createdAt: Date.now(),
    task: { id: 'log-stats', text: 't' },
    provider,
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    runs: runs.map((_, i) => ({ runId: `${id}-r${i}`, mode: 'react' as const })),
  });
  let bytes = 0;
  for (const [i, events] of runs.entries()) {
    const text = events.map((e) => JSON.stringify({ ...e, runId: `${id}-r${i}` })).join('\n') + '\n';
    bytes += text.length;
    await writeFile(store.runLogPath(id, `${id}-r${i}`), text);
  }
  return bytes;
}

// A full collection before and after each measurement, so the figures are what the operation holds.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
};

/** Time, and the memory the result still holds after a collection (`retained`). */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T; retained: number }> {
  gc();
  const base = heap();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  gc();
  return { ms, value, retained: Math.max(0, heap() - base) };
}

export default async function historyBench(): Promise<void> {
  const sample = runEvents('r', 3000, 200);
  for (const e of sample) checkStepEvent(e);
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 500) {
    for (const e of sample) checkStepEvent(e);
    n += sample.length;
  }
  const perEvent = ((performance.now() - t0) * 1000) / n;
  console.log(
    `schema check: ${perEvent.toFixed(2)} µs per event (${Math.round(1e6 / perEvent).toLocaleString('en-US')} events/s), on the worker → host path and on every history line`,
  );

  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-history-'));
  try {
    const long = await storeWith(dataDir, 'long', [runEvents('a', 50_000, 200), runEvents('b', 50_000, 200)]);
    const list = await timed(() => new HistoryStore(dataDir).list());
    const open = await timed(() => new HistoryStore(dataDir).open('long'));
    console.log(`long comparison, 2 runs × 50,000 events (${mb(long)} of JSONL):`);
    console.log(
      `  list ${list.ms.toFixed(0)} ms (holds ${mb(list.retained)}) · open ${open.ms.toFixed(0)} ms (holds ${mb(open.retained)}: ${open.value.events.length.toLocaleString('en-US')} events)`,
    );

    await rm(join(dataDir, 'comparisons', 'long'), { recursive: true });
    const huge = await storeWith(dataDir, 'huge', [runEvents('c', 16, 12 * 1024 * 1024)]);
    const store = new HistoryStore(dataDir);
    const hugeList = await timed(() => store.list());
    // The way it was read before: the whole file as one string, split, every line parsed and kept.
    const whole = await timed(async () =>
      (await readFile(store.runLogPath('huge', 'huge-r0'), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    );
    console.log(
      `run log with five 12 MB tool outputs (${mb(huge)}): list ${hugeList.ms.toFixed(0)} ms, holds ${mb(hugeList.retained)} ` +
        `(statuses and tokens only; one line in memory at a time) · read whole and parsed, as before: ${whole.ms.toFixed(0)} ms, holds ${mb(whole.retained)}`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
