import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { cliArgv } from '../host/cli-process.js';

const exec = promisify(execFile);
const cli = [...cliArgv];
const tmp: string[] = [];
afterAll(() => Promise.all(tmp.map((d) => rm(d, { recursive: true, force: true }))));

async function parallax(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const r = await exec(process.execPath, [...cli, ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('parallax run', () => {
  it('prints one JSON object with the run, labelled simulated, and writes every event with --events', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-cli-run-'));
    tmp.push(dir);
    const file = join(dir, 'events.jsonl');
    const r = await parallax(['run', '--task', 'log-stats', '--mode', 'code', '--json', '--events', file]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      status: string;
      simulated: boolean;
      validation: { ok: boolean };
      steps: number;
      usage: Record<string, unknown>;
      perStep: { step: number; prompt: number; completion: number; usageSource: string }[];
    };
    expect(out).toMatchObject({ status: 'answered', simulated: true, validation: { ok: true } });
    const events = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StepEvent);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const totals = computeTotals(events);
    expect(out.usage).toEqual({
      prompt: totals.prompt,
      completion: totals.completion,
      cached: totals.cached,
      reasoning: totals.reasoning,
      total: totals.total,
      source: 'reported',
    });
    expect(out.perStep.every((s) => s.usageSource === 'reported')).toBe(true);
    expect(out.steps).toBe(totals.steps);
    expect(out.perStep.reduce((n, s) => n + s.prompt, 0)).toBe(totals.prompt);
  });

  it('prints a live step table labelled simulated', async () => {
    const r = await parallax(['run', '--task', 'calc']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/step\s+prompt\s+completion/);
    expect(r.stdout).toMatch(/^\s+1\s+\d+\s+\d+\s+\d+ms\s+calculator$/m);
    expect(r.stdout).toMatch(/tokens \(simulated\): prompt \d+/);
    expect(r.stdout).toMatch(/validation: PASS/);
    expect(r.stdout.replace(/,/g, '')).toContain('56877');
  });

  it('rejects bad flags with a message that says what to do', async () => {
    const mode = await parallax(['run', '--task', 'calc', '--mode', 'magic']);
    expect(mode.code).not.toBe(0);
    expect(mode.stderr).toMatch(/Unknown mode "magic"\. Use one of: react, code/);
    const key = await parallax(['run', '--task', 'calc', '--provider', 'deepseek'], { DEEPSEEK_API_KEY: '' });
    expect(key.stderr).toMatch(/DEEPSEEK_API_KEY is empty\. Set it to your deepseek API key/);
    const steps = await parallax(['run', '--task', 'calc', '--max-steps', '0']);
    expect(steps.stderr).toMatch(/maxSteps: .*Fix these values/);
  });
});
