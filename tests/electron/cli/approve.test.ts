/**
 * `--approve` on the real CLI: refused 'ask' without a terminal, defaults turned into deny with a note, and on
 * a real terminal (a pseudo-terminal made by util-linux `script`) the prompt that a y or n answers.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { cliArgv, runCli } from '../host/cli-process.js';

async function dataEnv() {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-approve-'));
  return { dataDir, env: { ...process.env, PARALLAX_DATA_DIR: dataDir } };
}

/** The CLI on a pseudo-terminal; `answer` is typed each time a prompt shows. Resolves with everything printed. */
function onTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  answer: string,
): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, ...cliArgv, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let answered = 0;
  const onData = (chunk: Buffer): void => {
    out += chunk.toString();
    const prompts = out.split('Allow? [y]es, [n]o').length - 1;
    while (answered < prompts) {
      answered++;
      child.stdin.write(`${answer}\n`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe('parallax compare --approve', () => {
  it('refuses ask without a terminal before anything starts, naming the flags to use instead', async () => {
    const { dataDir, env } = await dataEnv();
    const r = await runCli(['compare', '--task', 'time-and-title', '--approve', 'run_shell=ask,fetch_url=ask'], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /--approve run_shell=ask,fetch_url=ask needs a terminal to ask on, and stdin is not one\. Pass run_shell=allow or run_shell=deny; fetch_url=allow or fetch_url=deny instead\./,
    );
    expect(await readdir(join(dataDir, 'comparisons')).catch(() => [])).toEqual([]);
    const bad = await runCli(['compare', '--task', 'calc', '--approve', 'shell=yes'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/"yes" in "shell=yes" is not a mode/);
  });

  it('without a terminal, a default of ask becomes deny with a note, and the policy is recorded', async () => {
    const { dataDir, env } = await dataEnv();
    const folder = await mkdtemp(join(tmpdir(), 'parallax-cli-folder-'));
    // A folder of the user's: fetch_url asks by default, and there is no one to ask.
    const r = await runCli(
      [
        'compare',
        '--task',
        'time-and-title',
        '--modes',
        'react',
        '--workspace',
        folder,
        '--approve',
        'write_file=deny',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /note: fetch_url asks for approval by default here \(the workspace is a folder of yours\) and there is no terminal to ask on, so it is denied\. Pass --approve fetch_url=allow to allow it\./,
    );
    const [item] = await new HistoryStore(dataDir).list();
    expect(item.meta.settings.approvals).toMatchObject({ write_file: 'deny', fetch_url: 'deny' });
    const stored = await new HistoryStore(dataDir).open(item.meta.id);
    expect(stored.events.find((e) => e.type === 'tool-finished' && e.name === 'fetch_url')).toMatchObject({
      error: expect.stringMatching(/approval policy says deny/),
    });
  });

  it('on a terminal, asks and runs the call when the user types y', async () => {
    const { dataDir, env } = await dataEnv();
    const r = await onTerminal(
      ['compare', '--task', 'time-and-title', '--modes', 'react,code', '--approve', 'fetch_url=ask'],
      env,
      'y',
    );
    expect(r.code, r.out).toBe(0);
    // The arguments follow on their own line, whole (approval prompts never hide a tail).
    expect(r.out).toMatch(/\[ReAct\s*\] wants to call fetch_url:\r?\n\{\s*"url": "http:\/\/127\.0\.0\.1:\d+\//);
    expect(r.out).toMatch(/\[Code Mode\] wants to call fetch_url/);
    expect(r.out).toMatch(/fetch_url allowed after \d+\.\d s \(not counted as the run's time\)/);
    const [item] = await new HistoryStore(dataDir).list();
    expect(item.runs.map((x) => x.status)).toEqual(['answered', 'answered']);
    const stored = await new HistoryStore(dataDir).open(item.meta.id);
    expect(
      stored.events.filter((e) => e.type === 'approval-resolved').map((e) => (e as { decision: string }).decision),
    ).toEqual(['allow', 'allow']);
    expect(
      stored.events
        .filter((e) => e.type === 'run-finished')
        .every((e) => (e as { validation: { ok: boolean } }).validation.ok),
    ).toBe(true);
  });

  it('on a terminal, n denies the call and the model is told so', async () => {
    const { dataDir, env } = await dataEnv();
    const r = await onTerminal(
      ['compare', '--task', 'time-and-title', '--modes', 'react', '--approve', 'fetch_url=ask'],
      env,
      'n',
    );
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/fetch_url denied after/);
    const [item] = await new HistoryStore(dataDir).list();
    const stored = await new HistoryStore(dataDir).open(item.meta.id);
    expect(stored.events.find((e) => e.type === 'tool-finished' && e.name === 'fetch_url')).toMatchObject({
      error: expect.stringMatching(/^The user denied fetch_url/),
    });
  });
});
