import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { exited, runCli, startCli } from '../host/cli-process.js';
import { waitFor } from '../host/session-helpers.js';

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
      comparisonId: string; simulated: boolean;
      runs: { mode: string; status: string; validation: { ok: boolean } | null; steps: number; usage: { prompt: number; completion: number; cached: number }; perStep: { step: number; prompt: number; completion: number }[]; firstRequestAt: number | null }[];
    };
    expect(out.simulated).toBe(true);
    expect(out.runs.map((r) => [r.mode, r.status, r.validation?.ok])).toEqual([['react', 'answered', true], ['code', 'answered', true]]);
    for (const r of out.runs) {
      expect(r.perStep).toHaveLength(r.steps);
      expect(r.perStep.reduce((s, p) => s + p.prompt, 0)).toBe(r.usage.prompt);
      expect(r.perStep.reduce((s, p) => s + p.completion, 0)).toBe(r.usage.completion);
    }
    expect(Math.abs(out.runs[0].firstRequestAt! - out.runs[1].firstRequestAt!)).toBeLessThan(1500);
    expect(res.stderr).toMatch(/\[ReAct\s*\]\s+1 /); // live step lines go to stderr with --json
    const list = await new HistoryStore(dataDir).list();
    expect(list.map((c) => c.meta.id)).toEqual([out.comparisonId]);
  });

  it('prints live lines and a side-by-side summary labelled simulated', async () => {
    const { env: e } = await env();
    const res = await runCli(['compare', '--task', 'calc', '--modes', 'code,react'], e);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/\[Code Mode\] answered after \d+ steps/);
    expect(res.stdout).toMatch(/\s+Code Mode\s+ReAct\n/);
    expect(res.stdout).toMatch(/total tokens \(simulated\)/);
    expect(res.stdout).toMatch(/Stored as \S+ in /);
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
  });

  it('Ctrl+C (to the whole process group) cancels the runs cleanly and keeps them in history as cancelled', async () => {
    const { dataDir, env: e } = await env();
    const cli = startCli(['compare', '--task', 'log-stats', '--fault', 'hang'], e, true);
    await waitFor(() => (cli.output.stdout.match(/started/g) ?? []).length >= 2 || cli.exitCode !== null, 60_000, 'both runs to start');
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    process.kill(-cli.pid!, 'SIGINT'); // the whole group, workers included, as a terminal does
    const res = await exited(cli);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(res.code).toBe(130);
    expect(res.stderr).toMatch(/Cancelling the runs/);
    const [item] = await new HistoryStore(dataDir).list();
    expect(item.runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('kill -9 of the host itself: its workers leave, and the runs load as interrupted with their events', async () => {
    const { dataDir, env: e } = await env();
    const cli = startCli(['compare', '--task', 'log-stats', '--fault', 'hang'], e);
    await waitFor(() => (cli.output.stdout.match(/started/g) ?? []).length >= 2 || cli.exitCode !== null, 60_000, 'both runs to start');
    await new Promise((r) => setTimeout(r, 300)); // let the fan-in write what it has
    const workers = await childrenOf(cli.pid!);
    expect(workers).toHaveLength(2);
    cli.kill('SIGKILL');
    await exited(cli);
    await waitFor(() => workers.every((pid) => !alive(pid)), 10_000, 'the orphaned workers to exit');

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
