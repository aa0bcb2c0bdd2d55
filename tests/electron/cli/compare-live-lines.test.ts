/**
 * `parallax compare`'s live lines, through the real CLI on the simulated model: with several columns streaming
 * interleaved, the column heads come first and every line names its column, labelled as the app labels it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import { parseVariants, resolveColumns } from '../../../shared/variants.js';
import { runCli } from '../host/cli-process.js';

const VARIANTS = '[{"mode":"code","settings":{"returnTypes":false}},{"mode":"code"},{"mode":"react"}]';

describe('parallax compare live lines', () => {
  it("prints the column heads before any line, and starts every line with its column's label", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-live-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(['compare', '--task', 'time-and-title', '--variants', VARIANTS], env);
    expect(res.code, res.stderr).toBe(0);
    // The labels the app shows for these columns (shared/variants.ts), two of them of one mode.
    const labels = resolveColumns(parseVariants(VARIANTS), {
      provider: 'simulated',
      model: 'sim',
      settings: DEFAULT_SETTINGS,
    }).map((c) => c.label);
    expect(labels).toEqual(['Code Mode · no return types', 'Code Mode', 'ReAct']);

    const lines = res.stdout.split('\n');
    const start = lines.findIndex((l) => l.startsWith('Comparison '));
    const end = lines.indexOf('', start);
    const [head, ...live] = lines.slice(start + 1, end);
    expect(head, res.stdout).toMatch(/^\s+step\s+prompt\s+completion\s+latency\s+tool calls\s+\(tokens simulated\)$/);
    expect(live.length).toBeGreaterThanOrEqual(3 * 3);

    const width = Math.max(...labels.map((l) => l.length));
    const byLabel = new Map<string, string[]>(labels.map((l) => [l, []]));
    for (const line of live) {
      const m = /^\[(.{1,200}?)\] (.*)$/.exec(line);
      expect(m, `a live line without its column: ${line}`).not.toBeNull();
      // Padded to the widest label, so the figures line up under the heads.
      expect(m![1]!.length).toBe(width);
      const label = m![1]!.trimEnd();
      expect(labels, line).toContain(label);
      byLabel.get(label)!.push(m![2]!);
    }
    const stepAt = head!.indexOf('step') + 'step'.length;
    for (const [label, own] of byLabel) {
      expect(own[0], label).toMatch(/^started \(\d+ tools? offered\)/);
      const steps = live.filter(
        (l) => l.startsWith(`[${label.padEnd(width)}]`) && /^\s+\d+\s+\d+/.test(l.slice(width + 3)),
      );
      expect(steps.length, label).toBeGreaterThanOrEqual(1);
      // The step number ends under "step".
      for (const s of steps) expect(s.slice(0, stepAt).trimEnd().length, s).toBe(stepAt);
      expect(own.at(-1), label).toMatch(/^answered after \d+ steps · \d+ tokens · validation (PASS|FAIL)/);
    }
    // The lines of the columns interleave (they stream side by side), which is why each names its column.
    const order = live.map((l) => l.slice(1, width + 1).trimEnd());
    expect(order.some((l, i) => i > 0 && l !== order[i - 1])).toBe(true);
  });
});
