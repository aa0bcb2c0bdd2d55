/** --concurrency through the real CLI: checked against the provider's cap before anything starts, and recorded. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { runCli } from '../host/cli-process.js';

describe('parallax --concurrency', () => {
  it("refuses a value above the provider's cap on compare and suite run, saying the cap", async () => {
    const env = { ...process.env, PARALLAX_DATA_DIR: await mkdtemp(join(tmpdir(), 'parallax-cli-conc-')) };
    const compare = await runCli(['compare', '--task', 'calc', '--trials', '2', '--concurrency', '99'], env);
    expect(compare.code).not.toBe(0);
    expect(compare.stderr).toContain('--concurrency: At most 16 rounds at once for the simulated model. Got "99".');
    const suite = await runCli(['suite', 'run', 'builtin', '--concurrency', '0'], env);
    expect(suite.code).not.toBe(0);
    expect(suite.stderr).toContain('--concurrency: Must be at least 1. Got "0".');
  });

  it('compare --concurrency 2 runs the trials two rounds at a time and records it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-conc-'));
    const res = await runCli(
      ['compare', '--task', 'calc', '--modes', 'react', '--trials', '3', '--concurrency', '2', '--json'],
      { ...process.env, PARALLAX_DATA_DIR: dataDir },
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { comparisonId: string };
    const stored = await new HistoryStore(dataDir).open(out.comparisonId);
    expect(stored.meta.concurrency).toBe(2);
    expect(stored.events.filter((e) => e.type === 'run-finished').length).toBe(3);
  });
});
