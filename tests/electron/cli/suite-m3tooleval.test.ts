/**
 * `parallax suite run m3tooleval:<domain> --modes … --models … --trials … --limit …` end to end on the simulated
 * model: the paper's table (success and average turns per model and mode, beside tokens per task, per step and in
 * all) is checked against what the stored comparisons recorded, run by run; the text, Markdown and HTML reports
 * carry it, labelled simulated.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { runCli } from '../host/cli-process.js';

interface Stat {
  n: number;
  mean: number;
  ci95: [number, number] | null;
}
interface Cell {
  mode: string;
  runs: number;
  passed: number;
  success: { k: number; n: number; ci95: [number, number] } | null;
  turns: Stat | null;
  tokensPerTask: Stat | null;
  tokensPerStep: Stat | null;
  tokensInAll: number | null;
}
interface Out {
  id: string;
  simulated: boolean;
  taskSet: string;
  paper: {
    modes: string[];
    rows: { model: string; cells: (Cell | null)[]; differences: unknown[] }[];
    published?: unknown[];
  };
  tasks: { taskId: string; comparisonId: string }[];
}

let env: NodeJS.ProcessEnv;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'parallax-suite-m3-'));
  env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
  delete env.OPENAI_API_KEY;
});

describe('parallax suite run m3tooleval', () => {
  it("gives the paper's table per model and mode, equal to the stored runs, in every report format", async () => {
    const args = [
      'suite',
      'run',
      'm3tooleval:message_decoder,trade_calculator',
      '--modes',
      'react,react-text,code-py',
      '--models',
      'sim,sim-hasty',
      '--trials',
      '2',
      '--limit',
      '2',
      '--json',
    ];
    const res = await runCli(args, env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as Out;
    expect(out.simulated).toBe(true);
    expect(out.taskSet).toBe('m3tooleval');
    // --limit 2 keeps the first two tasks of the domains asked, in the set's order.
    expect(out.tasks.map((t) => t.taskId)).toEqual([
      'm3tooleval/message_decoder/full_alien_message_decoding',
      'm3tooleval/message_decoder/shortest_caesar_decoded_message',
    ]);
    // The paper's order: text, JSON, code actions; one row per model.
    expect(out.paper.modes).toEqual(['react-text', 'react', 'code-py']);
    expect(out.paper.rows.map((r) => r.model)).toEqual(['sim', 'sim-hasty']);

    // Every run as recorded: its model, its mode, whether the paper's scoring took it, its turns and tokens.
    const history = new HistoryStore(dataDir, () => {});
    const runs: { model: string; mode: string; ok: boolean; turns: number; tokens: number }[] = [];
    for (const task of out.tasks) {
      const stored = await history.open(task.comparisonId);
      const byRun = new Map<string, StepEvent[]>();
      for (const e of stored.events) byRun.set(e.runId, [...(byRun.get(e.runId) ?? []), e]);
      for (const events of byRun.values()) {
        const started = events.find((e) => e.type === 'run-started')!;
        const finished = events.find((e) => e.type === 'run-finished')!;
        if (started.type !== 'run-started' || finished.type !== 'run-finished')
          throw new Error('a run without its start or end');
        runs.push({
          model: started.provider.model,
          mode: started.mode,
          ok: finished.validation?.ok === true,
          turns: events.filter((e) => e.type === 'model-request').length,
          tokens: finished.totals.total,
        });
      }
    }
    expect(runs).toHaveLength(2 * 2 * 3 * 2);
    for (const row of out.paper.rows) {
      row.cells.forEach((cell, i) => {
        const mine = runs.filter((r) => r.model === row.model && r.mode === out.paper.modes[i]);
        expect(cell!.mode).toBe(out.paper.modes[i]);
        expect(cell!.runs).toBe(4);
        expect(cell!.passed).toBe(mine.filter((r) => r.ok).length);
        expect(cell!.success!.k).toBe(cell!.passed);
        expect(cell!.turns!.mean).toBeCloseTo(mine.reduce((s, r) => s + r.turns, 0) / 4, 9);
        expect(cell!.tokensInAll).toBe(mine.reduce((s, r) => s + r.tokens, 0));
        expect(cell!.tokensPerTask!.mean).toBeCloseTo(cell!.tokensInAll! / 4, 9);
        expect(cell!.tokensPerStep!.mean).toBeCloseTo(mine.reduce((s, r) => s + r.tokens / r.turns, 0) / 4, 9);
        // With 4 runs a cell has its interval.
        expect(cell!.turns!.ci95).not.toBeNull();
      });
      expect(row.differences.length).toBeGreaterThan(0);
    }
    expect(out.paper.published?.length).toBeGreaterThan(0);

    const text = await runCli(['suite', 'show', out.id], env);
    expect(text.stdout).toContain("The paper's table: M3ToolEval (CodeAct, ICML 2024) (simulated)");
    expect(text.stdout).toMatch(/Tokens per step \(simulated\)/);
    expect(text.stdout).toMatch(/^sim-hasty +ReAct \(text\)/m);
    const md = await runCli(['suite', 'report', out.id, '--format', 'md'], env);
    expect(md.stdout).toContain("## The paper's table: M3ToolEval (CodeAct, ICML 2024) (simulated)");
    expect(md.stdout).toContain("### The paper's figures");
    const page = await runCli(['suite', 'report', out.id, '--format', 'html'], env);
    expect(page.stdout).toContain('data-testid="paper-table"');
    expect(page.stdout).toContain('(simulated)</h2>');
  }, 600_000);

  it("names the domains when one asked is not the set's, and runs nothing", async () => {
    const res = await runCli(['suite', 'run', 'm3tooleval:dna', '--modes', 'react'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /"dna", which is not a domain of m3tooleval\. Its domains: message_decoder, .*dna_sequencer/,
    );
    const list = await runCli(['suite', 'list'], env);
    expect(list.stdout).not.toContain('m3tooleval:dna ');
  });
});
