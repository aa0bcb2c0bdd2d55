/**
 * A renamed knob's former flag: `--history` (now `--tool-history`) still sets the knob, with a one-line note
 * naming the new flag, and is kept out of the help. Runs the built CLI (`npm run build` first).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = join(process.cwd(), 'bin/parallax.js');
let dir = '';

function parallax(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, PARALLAX_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The settings the run recorded in its run-started. */
async function recorded(file: string): Promise<Record<string, unknown>> {
  const first = JSON.parse((await readFile(file, 'utf8')).split('\n')[0]!) as { settings: Record<string, unknown> };
  return first.settings;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallax-former-flags-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('--history, the former name of --tool-history', () => {
  it('sets the same setting, says the new name once, and the run records it under the new key', async () => {
    const events = join(dir, 'old-flag.jsonl');
    const r = await parallax(['run', '--task', 'calc', '--mode', 'react', '--history', 'window:2', '--events', events]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('--history'))).toEqual([
      'note: --history is now --tool-history; it sets the same setting.',
    ]);
    const settings = await recorded(events);
    expect(settings.toolHistory).toBe('window:2');
    expect(settings).not.toHaveProperty('history');
  });

  it('--tool-history sets it without a note', async () => {
    const events = join(dir, 'new-flag.jsonl');
    const r = await parallax([
      'run',
      '--task',
      'calc',
      '--mode',
      'react',
      '--tool-history',
      'clear-results:2',
      '--events',
      events,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('--history');
    expect((await recorded(events)).toolHistory).toBe('clear-results:2');
  });

  it('both flags at once are refused, naming the one to keep', async () => {
    const r = await parallax([
      'run',
      '--task',
      'calc',
      '--mode',
      'react',
      '--history',
      'full',
      '--tool-history',
      'full',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--history is the former name of --tool-history; give only --tool-history.');
  });

  it('the help lists --tool-history and not --history', async () => {
    for (const command of [['run'], ['compare'], ['suite', 'run']]) {
      const r = await parallax([...command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('--tool-history <kind>');
      expect(r.stdout).not.toMatch(/--history\b/);
    }
  });
});
