/**
 * Test helper: runs whose usage is reported, estimated or missing and whose price is recorded, absent or
 * unrecorded — the events a real provider run produces — and a way to store them as a real comparison on
 * disk (meta.json + runs/*.jsonl through the history store), for the reports, the CLI and the app to read.
 */
import type { ComparisonMeta, StoredComparison } from '../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS, type ModeId, type ProviderInfo } from '../../shared/run-spec.js';
import type { ModelPrice, RunStatus, StepEvent, StepEventInput, Usage, UsageSource } from '../../shared/step-event.js';
import { computeTotals } from '../../shared/summary.js';
import { HistoryStore } from '../../electron/host/history-store.js';

export const OPENAI: ProviderInfo = {
  name: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4.1-mini',
  simulated: false,
};
export const LMSTUDIO: ProviderInfo = {
  name: 'lmstudio',
  baseUrl: 'http://127.0.0.1:1234/v1',
  model: 'local-model',
  simulated: false,
};

/** gpt-4.1-mini's rates in the default table: $0.40 in, $0.10 cached, $1.60 out per 1M. */
export const MINI_PRICE: ModelPrice = {
  model: 'gpt-4.1-mini',
  input: 0.4,
  cachedInput: 0.1,
  cacheWrite: null,
  output: 1.6,
  tableDate: '2026-12-01',
};

export interface StepSpec {
  readonly usage: Usage | null;
  readonly source?: UsageSource;
}

export interface RunSpecForTest {
  readonly runId: string;
  readonly mode: ModeId;
  readonly steps: readonly StepSpec[];
  readonly provider?: ProviderInfo;
  /** undefined: the run-started event has no price field at all (recorded before prices existed). */
  readonly price?: ModelPrice | null;
  readonly status?: RunStatus;
  readonly startedAt?: number;
}

/** One run's events, stamped as the engine stamps them; the last step answers. */
export function costRun(spec: RunSpecForTest): StepEvent[] {
  const inputs: StepEventInput[] = [
    {
      type: 'run-started',
      mode: spec.mode,
      task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
      provider: spec.provider ?? OPENAI,
      settings: DEFAULT_SETTINGS,
      systemPrompt: 'You are a careful assistant.',
      tools: [],
      startedAt: spec.startedAt ?? 1_780_000_000_000,
      ...(spec.price !== undefined ? { price: spec.price } : {}),
    },
  ];
  spec.steps.forEach((s, i) => {
    const step = i + 1;
    const last = i === spec.steps.length - 1;
    inputs.push({ type: 'model-request', step, attempt: 1, messageCount: 2 + 2 * i, toolNames: ['calculator'] });
    inputs.push({
      type: 'model-response',
      step,
      usage: s.usage,
      ...(s.source ? { usageSource: s.source } : {}),
      latencyMs: 100 + step,
      finishReason: last ? 'stop' : 'tool_calls',
      text: last ? '56877' : '',
      toolCalls: last ? [] : [{ id: `call_${step}`, name: 'calculator', arguments: '{"expression":"123*456+789"}' }],
    });
    if (!last) {
      inputs.push({
        type: 'tool-started',
        step,
        callId: `call_${step}`,
        name: 'calculator',
        args: { expression: '123*456+789' },
      });
      inputs.push({
        type: 'tool-finished',
        step,
        callId: `call_${step}`,
        name: 'calculator',
        output: '56877',
        rawSize: 5,
        truncated: false,
        durationMs: 1,
        error: null,
      });
    }
  });
  const events = inputs.map((e, seq) => ({ ...e, runId: spec.runId, seq, t: seq * 10 }) as StepEvent);
  const status = spec.status ?? 'answered';
  return [
    ...events,
    {
      type: 'run-finished',
      runId: spec.runId,
      seq: events.length,
      t: events.length * 10,
      status,
      answer: status === 'answered' ? '56877' : '',
      ...(status === 'error' ? { error: 'The provider refused the request.' } : {}),
      validation: status === 'answered' ? { ok: true, detail: 'Found 56877.' } : null,
      totals: computeTotals(events),
    },
  ];
}

export function comparisonOf(
  id: string,
  runs: readonly RunSpecForTest[],
  provider: ProviderInfo = OPENAI,
): StoredComparison {
  const meta: ComparisonMeta = {
    id,
    createdAt: 1_780_000_000_000,
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    provider,
    settings: DEFAULT_SETTINGS,
    runs: runs.map((r) => ({ runId: r.runId, mode: r.mode, trial: 1 })),
    workspaceSource: 'fixture:calc seed 1',
  };
  return { meta, events: runs.flatMap((r) => costRun({ provider, ...r })), warnings: [], interruptedRunIds: [] };
}

/** Store a comparison in a data dir as the host would: meta.json, then each run's JSONL. */
export async function storeComparison(dataDir: string, stored: StoredComparison): Promise<void> {
  const store = new HistoryStore(dataDir);
  await store.create(stored.meta);
  for (const r of stored.meta.runs) {
    const log = store.openRunLog(stored.meta.id, r.runId);
    log.append(stored.events.filter((e) => e.runId === r.runId));
    await log.finish();
  }
}

/**
 * A two-mode comparison at gpt-4.1-mini's price: ReAct's usage reported (with cached tokens), Code Mode's
 * estimated (the provider sent none). Costs: ReAct (1000−400)×0.4 + 400×0.1 + 50×1.6 → $0.00036, then
 * 1500×0.4 + 80×1.6 → $0.000728, total $0.001088; Code Mode 900×0.4 + 60×1.6 → ≈ $0.000456.
 */
export function estimatedComparison(id = '20261201-120000-cafe0001'): StoredComparison {
  return comparisonOf(id, [
    {
      runId: `${id}-react`,
      mode: 'react',
      price: MINI_PRICE,
      steps: [
        { usage: { prompt: 1000, completion: 50, cached: 400 }, source: 'reported' },
        { usage: { prompt: 1500, completion: 80 }, source: 'reported' },
      ],
    },
    {
      runId: `${id}-code`,
      mode: 'code',
      price: MINI_PRICE,
      steps: [{ usage: { prompt: 900, completion: 60 }, source: 'estimated' }],
    },
  ]);
}
