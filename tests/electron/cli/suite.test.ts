/**
 * `parallax suite` end to end on the simulated model: the built-in suite (its first four tasks) with 2 modes × 2 trials, its
 * leaderboard checked against the stored comparisons; a YAML suite with a fixture folder and suite validators;
 * a broken suite file refused with the task and field named.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { buildReport } from '../../../electron/host/reports/index.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { findTask } from '../../../shared/tasks.js';
import { runCli } from '../host/cli-process.js';

interface Agg {
  mode: string;
  trials: number;
  passed: number;
  passRate: { k: number; n: number; rate: number; ci95: [number, number] };
  total: { n: number; mean: number; ci95: [number, number] | null };
}
interface SuiteOut {
  id: string;
  simulated: boolean;
  modes: string[];
  trials: number;
  overall: Agg[];
  tasks: {
    taskId: string;
    comparisonId: string;
    byMode: Agg[];
    runs: {
      runId: string;
      mode: string;
      status: string;
      totalTokens: number;
      validation: { ok: boolean; detail: string } | null;
    }[];
  }[];
}

/** Tasks of the built-in suite run (the first ones, in its order). */
const LIMIT = 4;

let dataDir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'parallax-suite-'));
  env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
  delete env.OPENAI_API_KEY;
});

describe('parallax suite', () => {
  it('runs the built-in suite and its leaderboard equals the figures of the stored comparisons', async () => {
    // Its first four tasks (--limit): that the suite is every built-in task is tests/shared/suite.test.ts's to
    // check, and every task's runs are the modes' tests'; here what a suite run adds: rounds, records, leaderboard.
    const args = ['suite', 'run', 'builtin', '--modes', 'react,code', '--trials', '2', '--limit', String(LIMIT)];
    const res = await runCli([...args, '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as SuiteOut;
    expect(out.simulated).toBe(true);
    expect(out.tasks.map((t) => t.taskId)).toEqual(BUILTIN_TASKS.slice(0, LIMIT).map((t) => t.id));
    const history = new HistoryStore(join(dataDir), () => {});
    const pooled = new Map<string, { passed: number; runs: number; totals: number[] }>();
    for (const task of out.tasks) {
      const stored = await history.open(task.comparisonId);
      expect(stored.meta.task.id).toBe(task.taskId);
      const report = JSON.parse((await buildReport(stored, 'json')).content) as { summary: { byMode: Agg[] } };
      // Per task: exactly the per-mode figures of the comparison's own report.
      expect(task.byMode).toEqual(report.summary.byMode);
      for (const a of report.summary.byMode) {
        const p = pooled.get(a.mode) ?? { passed: 0, runs: 0, totals: [] };
        p.passed += a.passed;
        p.runs += a.trials;
        pooled.set(a.mode, p);
      }
      for (const r of task.runs)
        if (['answered', 'max-steps', 'error'].includes(r.status)) pooled.get(r.mode)!.totals.push(r.totalTokens);
    }
    // Overall: every run of every task pooled.
    expect(out.overall.map((a) => a.mode).sort()).toEqual(['code', 'react']);
    for (const a of out.overall) {
      const p = pooled.get(a.mode)!;
      expect(a.trials).toBe(LIMIT * 2);
      expect(a.passRate.k).toBe(p.passed);
      expect(a.passRate.n).toBe(p.runs);
      expect(a.total.mean).toBeCloseTo(p.totals.reduce((x, y) => x + y, 0) / p.totals.length, 9);
    }
    // Ranked: pass rate, then mean tokens.
    const [first, second] = out.overall;
    expect(
      first.passRate.rate > second.passRate.rate ||
        (first.passRate.rate === second.passRate.rate && first.total.mean <= second.total.mean),
    ).toBe(true);

    // Stored, listed, shown and reported with the same figures.
    const record = JSON.parse(await readFile(join(dataDir, 'suites', `${out.id}.json`), 'utf8')) as {
      tasks: { comparisonId: string }[];
    };
    expect(record.tasks.map((t) => t.comparisonId)).toEqual(out.tasks.map((t) => t.comparisonId));
    const shown = await runCli(['suite', 'show', 'latest', '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as SuiteOut).overall).toEqual(out.overall);
    const list = await runCli(['suite', 'list'], env);
    expect(list.stdout).toContain(out.id);
    const text = await runCli(['suite', 'show', out.id.slice(0, -2)], env);
    expect(text.stdout).toMatch(/Leaderboard \(simulated\)/);
    expect(text.stdout).toMatch(/Tokens \(simulated\)/);
    const md = await runCli(['suite', 'report', 'latest', '--format', 'md'], env);
    expect(md.stdout).toMatch(/^# Suite builtin/);
    expect(md.stdout).toContain('| Mode | Passed (95 % CI) | Tokens (simulated) |');
    const html = await runCli(['suite', 'report', 'latest', '--format', 'html'], env);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain('<h2>Leaderboard</h2>');
  });

  it('runs a YAML suite: fixture folder as the workspace, answers judged by the suite validators', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-suite-file-'));
    await mkdir(join(dir, 'logs'));
    await writeFile(join(dir, 'logs', 'alpha.txt'), 'ok\nERROR one\nERROR two\n');
    await writeFile(join(dir, 'logs', 'beta.txt'), 'ok\n');
    const calc = findTask('calc')!.text;
    const logs = findTask('log-stats')!.text;
    await writeFile(
      join(dir, 'mine.yaml'),
      [
        'name: mine',
        'modes: [code]',
        'trials: 1',
        'tasks:',
        `  - {id: sum, text: ${JSON.stringify(calc)}, validator: {number: 56877}}`,
        `  - {id: sum-wrong, text: ${JSON.stringify(calc)}, validator: {exact: "nope"}}`,
        `  - id: logs`,
        `    text: ${JSON.stringify(logs)}`,
        `    fixture: logs`,
        `    validator: {js: "answer.includes('alpha.txt') && !answer.includes('app.txt')"}`,
        '',
      ].join('\n'),
    );
    const res = await runCli(['suite', 'run', join(dir, 'mine.yaml'), '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as SuiteOut;
    const byId = Object.fromEntries(out.tasks.map((t) => [t.taskId, t]));
    expect(byId.sum.runs[0].validation).toMatchObject({ ok: true });
    expect(byId['sum-wrong'].runs[0].validation).toMatchObject({ ok: false });
    expect(byId.logs.runs[0].validation, JSON.stringify(byId.logs.runs[0])).toMatchObject({ ok: true });
    const stored = await new HistoryStore(dataDir, () => {}).open(byId.logs.comparisonId);
    expect(stored.meta.workspaceSource).toContain(join(dir, 'logs'));
    expect(out.overall[0]).toMatchObject({ mode: 'code', trials: 3, passed: 2 });
  });

  it('refuses a broken suite file, naming the task and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-suite-bad-'));
    await writeFile(
      join(dir, 'bad.json'),
      JSON.stringify({ name: 'bad', tasks: [{ builtin: 'calc' }, { id: 'x', text: 'hi', validator: { regex: '(' } }] }),
    );
    const res = await runCli(['suite', 'run', join(dir, 'bad.json')], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('tasks[1] (x).validator.regex: is not a valid regular expression');
    await writeFile(join(dir, 'bad.yaml'), 'name: [unclosed\n');
    const yaml = await runCli(['suite', 'run', join(dir, 'bad.yaml')], env);
    expect(yaml.stderr).toMatch(/is not valid YAML: .*Fix its syntax/);
    const modes = await runCli(['suite', 'run', 'builtin', '--modes', 'react,nope'], env);
    expect(modes.code).toBe(1);
    expect(modes.stderr).toContain('--modes: "nope" is not a mode; use react, code');
  });
});
