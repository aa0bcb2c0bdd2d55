import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModeId } from '../../../shared/run-spec.js';
import type { RunFinishedEvent, RunStartedEvent, StepEvent } from '../../../shared/step-event.js';
import { aggregateByColumn, groupByRun, summarizeRun } from '../../../shared/summary.js';
import { formatMean } from '../../../shared/number-format.js';
import { sideBySide } from '../../../electron/cli/compare-output.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { buildReport } from '../../../electron/host/reports/index.js';
import { exited, runCli, startCli } from '../host/cli-process.js';
import { waitFor } from '../host/session-helpers.js';
import { runLogsWith } from '../../helpers/run-logs.js';

async function env() {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-compare-'));
  const e: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
  delete e.OPENAI_API_KEY;
  return { dataDir, env: e };
}

describe('parallax compare', () => {
  it('--json: both modes answer log-stats on the simulated model, per-step usage adds up, and history has it', async () => {
    const { dataDir, env: e } = await env();
    const res = await runCli(['compare', '--task', 'log-stats', '--json'], e);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      comparisonId: string;
      simulated: boolean;
      runs: {
        mode: string;
        status: string;
        validation: { ok: boolean } | null;
        steps: number;
        usage: { prompt: number; completion: number; cached: number };
        perStep: { step: number; prompt: number; completion: number }[];
        firstRequestAt: number | null;
      }[];
    };
    expect(out.simulated).toBe(true);
    expect(out.runs.map((r) => [r.mode, r.status, r.validation?.ok])).toEqual([
      ['react', 'answered', true],
      ['code', 'answered', true],
    ]);
    for (const r of out.runs) {
      expect(r.perStep).toHaveLength(r.steps);
      expect(r.perStep.reduce((s, p) => s + p.prompt, 0)).toBe(r.usage.prompt);
      expect(r.perStep.reduce((s, p) => s + p.completion, 0)).toBe(r.usage.completion);
    }
    expect(res.stderr).toMatch(/\[ReAct\s*\]\s+1 /); // live step lines go to stderr with --json
    const list = await new HistoryStore(dataDir).list();
    expect(list.map((c) => c.meta.id)).toEqual([out.comparisonId]);
    // Side by side: each run's first request went out before the other run had finished.
    const stored = await new HistoryStore(dataDir).open(out.comparisonId);
    expect(
      overlapping(
        stored.events,
        stored.meta.runs.map((r) => r.runId),
      ),
    ).toBe(true);
  });

  it('--modes react,react-text --json: the text mode answers and validates, and its stored steps hold the parsed replies', async () => {
    const { dataDir, env: e } = await env();
    const res = await runCli(['compare', '--task', 'log-stats', '--modes', 'react,react-text', '--json'], e);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      comparisonId: string;
      runs: { runId: string; mode: string; status: string; validation: { ok: boolean } | null; steps: number }[];
    };
    expect(out.runs.map((r) => [r.mode, r.status, r.validation?.ok])).toEqual([
      ['react', 'answered', true],
      ['react-text', 'answered', true],
    ]);
    expect(res.stderr).toMatch(/\[ReAct \(text\)\]\s+1 /);
    const stored = await new HistoryStore(dataDir).open(out.comparisonId);
    const text = out.runs[1]!;
    const responses = stored.events.filter((ev) => ev.runId === text.runId && ev.type === 'model-response');
    expect(responses).toHaveLength(text.steps);
    for (const r of responses)
      expect(r.type === 'model-response' && r.parsed && r.parsed.parseError === null).toBe(true);
    // The HTML report shows each parsed Thought; the JSON report carries the events whole.
    const thoughts = (await buildReport(stored, 'html')).content.match(/<span class="label">Thought<\/span>/g) ?? [];
    expect(thoughts).toHaveLength(text.steps);
    const json = JSON.parse((await buildReport(stored, 'json')).content) as {
      events: { type: string; parsed?: unknown }[];
    };
    expect(json.events.filter((ev) => ev.type === 'model-response' && ev.parsed)).toHaveLength(text.steps);
  });

  it('prints live lines and a side-by-side summary labelled simulated', async () => {
    const { env: e } = await env();
    const res = await runCli(['compare', '--task', 'calc', '--modes', 'code,react'], e);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/\[Code Mode\] answered after \d+ steps/);
    expect(res.stdout).toMatch(/\s+Code Mode\s+ReAct\n/);
    expect(res.stdout).toMatch(/Total tokens \(simulated\)/);
    expect(res.stdout).toMatch(/Stored as \S+ in /);
  });

  it("--trials 3 --json: six runs in rounds, each round's modes together, byMode equals the stored runs' aggregate", async () => {
    const { dataDir, env: e } = await env();
    const res = await runCli(['compare', '--task', 'calc', '--trials', '3', '--json'], e);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      comparisonId: string;
      trials: number;
      runs: { runId: string; mode: ModeId; trial: number; status: string; validation: { ok: boolean } | null }[];
      byMode: unknown;
    };
    expect(out.trials).toBe(3);
    expect(out.runs.map((r) => [r.mode, r.trial, r.status, r.validation?.ok])).toEqual(
      [1, 2, 3].flatMap((trial) => [
        ['react', trial, 'answered', true],
        ['code', trial, 'answered', true],
      ]),
    );
    expect(res.stderr).toMatch(/\[ReAct #2\s*\] answered after \d+ steps/);
    expect(res.stderr).toMatch(/\[Code Mode #3\]\s+1 /);

    const stored = await new HistoryStore(dataDir).open(out.comparisonId);
    expect(stored.meta.runs.map((r) => [r.runId, r.mode, r.trial])).toEqual(
      out.runs.map((r) => [r.runId, r.mode, r.trial]),
    );
    const byRun = groupByRun(stored.events);
    const summaries = stored.meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!));
    expect(out.byMode).toEqual(Object.fromEntries(aggregateByColumn(summaries).map((a) => [a.mode, a])));

    // Rounds: every run of trial k+1 starts after every run of trial k has finished; a round's modes start together.
    const span = (runId: string) => {
      const evs = byRun.get(runId)!;
      const started = evs[0] as RunStartedEvent;
      const fin = evs.at(-1) as RunFinishedEvent;
      return { start: started.startedAt, end: started.startedAt + fin.t };
    };
    for (const trial of [1, 2]) {
      const ended = Math.max(...stored.meta.runs.filter((r) => r.trial === trial).map((r) => span(r.runId).end));
      for (const r of stored.meta.runs.filter((x) => x.trial === trial + 1))
        expect(span(r.runId).start).toBeGreaterThanOrEqual(ended);
    }
    for (const trial of [1, 2, 3]) {
      expect(
        overlapping(
          stored.events,
          stored.meta.runs.filter((r) => r.trial === trial).map((r) => r.runId),
        ),
      ).toBe(true);
    }

    // The text summary of the same comparison adds the averages, labelled simulated.
    const text = sideBySide(stored, dataDir).join('\n');
    expect(text).toMatch(/^ReAct · trial 3\s+answered\s+PASS/m);
    expect(text).toMatch(/average over 3 trials \(simulated\)/);
    const reactTotal = aggregateByColumn(summaries)[0].total!;
    // Mean ± half the 95 % interval, then the sd (min and max are in --json).
    const spread = `${formatMean(reactTotal.mean)} ± ${formatMean((reactTotal.ci95![1] - reactTotal.ci95![0]) / 2)}, sd ${formatMean(reactTotal.sd!)}`;
    expect(text.split('\n').find((l) => l.startsWith('Total tokens (simulated)'))).toContain(spread);
    expect(text).toMatch(/^Passed\s+3\/3 \(95 % CI 44 %–100 %\)/m); // Wilson, 3 of 3: scipy binomtest(3, 3).proportion_ci(method='wilson') → 0.4385029682449546, 1
    expect(text).toMatch(/^against ReAct \(exact permutation tests, paired by round\):$/m);
    expect(text).toMatch(/^Answered\s+3\/3\s+3\/3$/m);
  });

  it("exits 1 when no run answered, naming each run's reason", async () => {
    const { env: e } = await env();
    const none = await runCli(['compare', '--task', 'calc', '--fault', '500', '--settings', '{"maxRetries":0}'], e);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /No run answered, so there is nothing to compare\.\n {2}ReAct: error — .*server error \(500/,
    );
    expect(none.stderr).toMatch(/\n {2}Code Mode: error — /);
    // (Runs that answer exit 0: see 'prints live lines and a side-by-side summary'.)
  });

  it('says what to set when a key is missing, and starts nothing', async () => {
    const { dataDir, env: e } = await env();
    const res = await runCli(['compare', '--task', 'calc', '--provider', 'openai'], e);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/OPENAI_API_KEY/);
    expect(await new HistoryStore(dataDir).list()).toEqual([]);
    const bad = await runCli(['compare', '--task', 'calc', '--modes', 'react,fast'], e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Unknown mode "fast"/);
    const trials = await runCli(['compare', '--task', 'calc', '--trials', '0'], e);
    expect(trials.code).toBe(1);
    expect(trials.stderr).toMatch(/--trials must be a whole number from 1 to 10, got "0"/);
    expect(await new HistoryStore(dataDir).list()).toEqual([]);
  });

  it('Ctrl+C (to the whole process group) cancels the runs cleanly and keeps them in history as cancelled', async () => {
    const { dataDir, env: e } = await env();
    const cli = startCli(['compare', '--task', 'log-stats', '--fault', 'hang'], e, true);
    // Mid-request: both runs' first requests (which the simulated model never answers) are on record.
    await waitFor(
      () => runLogsWith(dataDir, 'model-request') >= 2 || cli.exitCode !== null,
      60_000,
      'both runs to send a request',
    );
    expect(cli.exitCode).toBeNull();
    process.kill(-cli.pid!, 'SIGINT'); // the whole group, workers included, as a terminal does
    const res = await exited(cli); // the requests hang: only the cancel can end it within the test's own timeout
    expect(res.code).toBe(130);
    expect(res.stderr).toMatch(/Cancelling the runs/);
    const [item] = await new HistoryStore(dataDir).list();
    expect(item.runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('kill -9 of the host itself: its workers leave, and the runs load as interrupted with their events', async () => {
    const { dataDir, env: e } = await env();
    const cli = startCli(['compare', '--task', 'log-stats', '--fault', 'hang'], e);
    // The fan-in has written both runs' first requests (the simulated model never answers them).
    await waitFor(
      () => runLogsWith(dataDir, 'model-request') >= 2 || cli.exitCode !== null,
      60_000,
      "both runs' first requests on record",
    );
    const workers = await childrenOf(cli.pid!);
    expect(workers).toHaveLength(2);
    cli.kill('SIGKILL');
    await exited(cli);
    await waitFor(() => workers.every((pid) => !alive(pid)), 60_000, 'the orphaned workers to exit');

    const store = new HistoryStore(dataDir);
    const [item] = await store.list();
    expect(item.runs.map((r) => r.status)).toEqual(['interrupted', 'interrupted']);
    const stored = await store.open(item.meta.id);
    expect(stored.warnings.filter((w) => /interrupted/.test(w))).toHaveLength(2);
    for (const run of item.meta.runs) {
      const types = stored.events.filter((ev) => ev.runId === run.runId).map((ev) => ev.type);
      expect(types.slice(0, 2)).toEqual(['run-started', 'model-request']);
      expect(types).not.toContain('run-finished');
    }
  });
});

/** Each run's first model request went out before any of the others had finished: they ran side by side. */
function overlapping(events: readonly StepEvent[], runIds: readonly string[]): boolean {
  const spans = runIds.map((runId) => {
    const evs = events.filter((e) => e.runId === runId);
    const started = evs.find((e): e is RunStartedEvent => e.type === 'run-started')!;
    const firstRequest = evs.find((e) => e.type === 'model-request')!;
    const fin = evs.find((e): e is RunFinishedEvent => e.type === 'run-finished')!;
    return { firstRequest: started.startedAt + firstRequest.t, end: started.startedAt + fin.t };
  });
  return spans.every((a) => spans.every((b) => a === b || a.firstRequest < b.end));
}

async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) out.push(Number(name));
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
