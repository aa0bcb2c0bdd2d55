/**
 * Report build time, every format (OTLP's first build, which loads the OpenTelemetry packages, apart), for a long comparison (2 runs × 100 steps) and for one with trials
 * (2 modes × 5 trials × 20 steps: the average section, the runs grouped by trial, ten folded timelines).
 * The simulated model's scripted tasks end in a handful of steps, so a real 100-step loop is not practical;
 * the events are a synthetic stream with the engine's shapes (a ReAct run of read_file calls whose results
 * pile up in the prompt, and a Code Mode run of programs with inner tool calls and printed output).
 */
import type { StoredComparison } from '../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../shared/run-spec.js';
import type { StepEvent, StepEventInput } from '../shared/step-event.js';
import { computeTotals } from '../shared/summary.js';
import { buildReport } from '../electron/host/reports/index.js';

const STEPS = 100;
const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:0/v1', model: 'sim', simulated: true };
const task = {
  id: 'log-stats',
  text: 'For every .txt file in the current directory, count its lines and ERROR lines.',
};
const logText = (i: number) =>
  Array.from(
    { length: 60 },
    (_, l) =>
      `2026-11-30 10:${String(l).padStart(2, '0')} ${l % 7 === 0 ? 'ERROR' : 'INFO'} worker-${i} handled request ${l}`,
  ).join('\n');
const program = (i: number) =>
  `const files = list_dir('.').filter(f => f.endsWith('.txt'));\nlet best = null;\nfor (const f of files) {\n  const text = read_file(f);\n  const lines = text.split('\\n');\n  const errors = lines.filter(l => l.includes('ERROR')).length;\n  print(\`\${f}: \${lines.length} lines, \${errors} ERROR\`);\n  if (!best || errors > best.errors) best = { f, errors };\n}\nprint('most ERROR lines: ' + best.f + ' (attempt ${i})');`;

/** `extra` grows each step's prompt a little, so trials of one mode differ the way real ones do. */
function run(runId: string, mode: 'react' | 'code', steps = STEPS, extra = 0): StepEvent[] {
  const out: StepEvent[] = [];
  let t = 0;
  const push = (e: StepEventInput, dt = 3) => out.push({ ...e, runId, seq: out.length, t: (t += dt) } as StepEvent);
  const tools =
    mode === 'react'
      ? ['list_dir', 'read_file', 'write_file', 'run_shell'].map((name) => ({
          name,
          description: `${name} tool`,
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        }))
      : [
          {
            name: 'run_code',
            description: 'Run JavaScript that calls the tools as functions.',
            parameters: { type: 'object', properties: { code: { type: 'string' } } },
          },
        ];
  push(
    {
      type: 'run-started',
      mode,
      task,
      provider,
      settings: { ...DEFAULT_SETTINGS, maxSteps: steps },
      systemPrompt: 'You are an agent.',
      tools,
      startedAt: Date.UTC(2026, 10, 30),
    },
    0,
  );
  let prompt = mode === 'react' ? 620 : 450;
  for (let step = 1; step <= steps; step++) {
    const last = step === steps;
    push({ type: 'model-request', step, attempt: 1, messageCount: 2 + 2 * step, toolNames: tools.map((x) => x.name) });
    const callId = `call_${step}`;
    const call =
      mode === 'react'
        ? { id: callId, name: 'read_file', arguments: JSON.stringify({ path: `log${step}.txt` }) }
        : { id: callId, name: 'run_code', arguments: JSON.stringify({ code: program(step) }) };
    const completion = mode === 'react' ? 24 : 160;
    push(
      {
        type: 'model-response',
        step,
        usage: { prompt, completion, cached: Math.floor(prompt / 2) },
        latencyMs: 400 + step,
        finishReason: last ? 'stop' : 'tool_calls',
        text: last ? 'Done.' : '',
        toolCalls: last ? [] : [call],
      },
      400,
    );
    if (last) break;
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    push({ type: 'tool-started', step, callId, name: call.name, args });
    let output = logText(step);
    if (mode === 'code') {
      output = Array.from({ length: 5 }, (_, i) => `log${i}.txt: 60 lines, 9 ERROR`).join('\n');
      push(
        {
          type: 'code-run',
          step,
          callId,
          code: program(step),
          output,
          error: null,
          printedBytes: output.length,
          toolBytes: 5 * 4000,
          durationMs: 12,
          limitHit: null,
          toolCalls: Array.from({ length: 6 }, (_, i) => ({
            name: i === 0 ? 'list_dir' : 'read_file',
            args: { path: `log${i}.txt` },
            durationMs: 1,
            resultBytes: 4000,
            error: null,
          })),
        },
        12,
      );
    }
    push({
      type: 'tool-finished',
      step,
      callId,
      name: call.name,
      output,
      rawSize: output.length,
      truncated: false,
      durationMs: 2,
      error: null,
    });
    prompt += completion + Math.ceil(output.length / 4) + extra;
  }
  push({
    type: 'run-finished',
    status: 'answered',
    answer: 'log1.txt: 60 lines, 9 ERROR\nMost ERROR lines: log1.txt',
    validation: { ok: true, detail: 'synthetic' },
    totals: computeTotals(out),
  });
  return out;
}

export function syntheticComparison(): StoredComparison {
  const events = [...run('react-1', 'react'), ...run('code-1', 'code')];
  return {
    meta: {
      id: 'bench-0001',
      createdAt: Date.UTC(2026, 10, 30),
      task,
      provider,
      settings: DEFAULT_SETTINGS,
      runs: [
        { runId: 'react-1', mode: 'react' },
        { runId: 'code-1', mode: 'code' },
      ],
      workspaceSource: 'synthetic',
    },
    events,
    warnings: [],
    interruptedRunIds: [],
  };
}

const TRIALS = 5;
const TRIAL_STEPS = 20;

/** 2 modes × TRIALS trials × TRIAL_STEPS steps, listed in rounds as the host stores them. */
export function syntheticTrials(): StoredComparison {
  const runs = Array.from({ length: TRIALS }, (_, i) => i + 1).flatMap((trial) =>
    (['react', 'code'] as const).map((mode) => ({ runId: `${mode}-t${trial}`, mode, trial })),
  );
  return {
    meta: {
      id: 'bench-trials',
      createdAt: Date.UTC(2026, 10, 30),
      task,
      provider,
      settings: DEFAULT_SETTINGS,
      runs,
      workspaceSource: 'synthetic',
    },
    events: runs.flatMap((r) => run(r.runId, r.mode, TRIAL_STEPS, 7 * r.trial)),
    warnings: [],
    interruptedRunIds: [],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench(): Promise<void> {
  // The OTLP report loads the OpenTelemetry packages on its first use: that first build, apart from the rest.
  const cold = performance.now();
  await buildReport(syntheticComparison(), 'otlp');
  console.log(
    `report build: first otlp export, OpenTelemetry packages loaded with it: ${(performance.now() - cold).toFixed(0)} ms`,
  );
  const long = await measure(syntheticComparison(), `2 runs × ${STEPS} steps`);
  const trials = await measure(syntheticTrials(), `2 modes × ${TRIALS} trials × ${TRIAL_STEPS} steps`);
  console.log(
    `  trials vs long: html per event ${((trials.html * 1000) / trials.events).toFixed(1)} vs ${((long.html * 1000) / long.events).toFixed(1)} µs`,
  );
}

async function measure(stored: StoredComparison, what: string): Promise<Record<string, number> & { events: number }> {
  console.log(
    `report build: ${what}, ${stored.events.length} events (synthetic event stream with the engine's shapes; not a real loop)`,
  );
  const times: Record<string, number> = {};
  for (const format of ['json', 'csv', 'md', 'html', 'otlp'] as const) {
    for (let i = 0; i < 3; i++) await buildReport(stored, format); // warm-up
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      bytes = (await buildReport(stored, format)).content.length;
      samples.push(performance.now() - t0);
    }
    times[format] = median(samples);
    console.log(
      `  ${format.padEnd(4)} median ${times[format].toFixed(2)} ms (min ${Math.min(...samples).toFixed(2)}, max ${Math.max(...samples).toFixed(2)}) · ${(bytes / 1024).toFixed(0)} KiB`,
    );
  }
  console.log(
    `  ratio html / json build time: ${(times.html / times.json).toFixed(1)}×; html per event: ${((times.html * 1000) / stored.events.length).toFixed(1)} µs`,
  );
  return { ...times, events: stored.events.length };
}
