/**
 * `parallax compare --task log-stats --variants examples/tutorial-agents.json` through the real CLI on the
 * simulated model: the tutorial's two Python agents run beside ReAct and Code Mode, every column answers and
 * passes, and the stored comparison keeps the agents' commands (resolved beside the variants file).
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../host/cli-process.js';

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

describe('parallax compare with agent columns', () => {
  it('runs the tutorial agents beside ReAct and Code Mode, each answered and validated', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-agents-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(
      ['compare', '--task', 'log-stats', '--variants', join(examples, 'tutorial-agents.json'), '--json'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      runs: { mode: string; status: string; validation: { ok: boolean } | null; column?: { label: string } }[];
    };
    expect(out.runs.map((r) => r.column?.label)).toEqual([
      'ReAct',
      'Code Mode',
      'Tutorial ReAct (Python)',
      'Tutorial Code Mode (Python)',
    ]);
    for (const r of out.runs) {
      expect(r.status, r.column?.label).toBe('answered');
      expect(r.validation?.ok, r.column?.label).toBe(true);
    }
    const [id] = await readdir(join(dataDir, 'comparisons'));
    const meta = JSON.parse(await readFile(join(dataDir, 'comparisons', id!, 'meta.json'), 'utf8')) as {
      variants: { mode: string; agent?: { command: string[] } }[];
    };
    expect(meta.variants.filter((v) => v.mode === 'agent').map((v) => v.agent!.command)).toEqual([
      ['python3', join(examples, 'tutorial/react_agent.py')],
      ['python3', join(examples, 'tutorial/codemode_agent.py')],
    ]);
  });
});
