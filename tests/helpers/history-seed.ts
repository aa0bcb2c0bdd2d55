/**
 * A large history written straight to disk, for the history benchmark and the paging tests: one stored
 * comparison (two answered runs of four steps) copied with new ids (cmp-000000 …) and dates a minute apart.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import type { StepEvent, StepEventInput } from '../../shared/step-event.js';
import { computeTotals } from '../../shared/summary.js';

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:0/v1', model: 'sim', simulated: true };
const MODES = ['react', 'code'] as const;

function runEvents(runId: string, mode: string): StepEvent[] {
  const out: StepEvent[] = [];
  const push = (e: StepEventInput) => out.push({ ...e, runId, seq: out.length, t: out.length } as StepEvent);
  push({
    type: 'run-started',
    mode,
    task: { id: 'log-stats', text: 'Summarise the log' },
    provider,
    settings: DEFAULT_SETTINGS,
    systemPrompt: 's',
    tools: [],
    startedAt: 0,
  } as StepEventInput);
  for (let step = 1; step <= 4; step++) {
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
      output: 'line\n'.repeat(40),
      rawSize: 200,
      truncated: false,
      durationMs: 1,
      error: null,
    });
  }
  push({ type: 'run-finished', status: 'answered', answer: 'done', validation: null, totals: computeTotals(out) });
  return out;
}

/** `count` comparisons written straight to disk: the template's meta and logs with the ids and dates changed. */
export function generate(dataDir: string, count: number): void {
  const base = join(dataDir, 'comparisons');
  const logs = MODES.map(
    (m) =>
      runEvents('RUNID', m)
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
  );
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i++) {
    const id = `cmp-${String(i).padStart(6, '0')}`;
    const dir = join(base, id);
    mkdirSync(join(dir, 'runs'), { recursive: true });
    const runs = MODES.map((mode, k) => ({ runId: `${id}-r${k}`, mode }));
    const meta = {
      id,
      createdAt: t0 + i * 60_000,
      task: { id: 'log-stats', text: 'Summarise the log' },
      provider,
      settings: DEFAULT_SETTINGS,
      workspaceSource: 'empty',
      runs,
    };
    writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
    runs.forEach((r, k) => writeFileSync(join(dir, 'runs', `${r.runId}.jsonl`), logs[k].replaceAll('RUNID', r.runId)));
  }
}
