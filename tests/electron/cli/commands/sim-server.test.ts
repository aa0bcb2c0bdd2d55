import { describe, expect, it } from 'vitest';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { once } from 'node:events';
import path from 'node:path';
import OpenAI from 'openai';
import { BUILTIN_TASKS } from '../../../../shared/tasks.js';
import { sourceUnlessFresh } from '../../host/cli-process.js';

const BIN = path.resolve(import.meta.dirname, '../../../../bin/parallax.js');
const env = { ...process.env, ...sourceUnlessFresh };

describe('parallax sim-server', () => {
  it('prints its base URL and a hint, serves the simulated model, and stops cleanly on Ctrl+C', async () => {
    const child = spawn(process.execPath, [BIN, 'sim-server', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    const firstLines = new Promise<string>((resolve) => {
      child.stdout.on('data', (d: string) => {
        out += d;
        if (out.split('\n').length > 2) resolve(out);
      });
    });
    const [url, hint] = (await firstLines).split('\n');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(hint).toContain(`base URL ${url}`);
    expect(hint).toContain('"sim"');
    const client = new OpenAI({ baseURL: url, apiKey: 'any' });
    const res = await client.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'hello' }] });
    expect(res.system_fingerprint).toBe('parallax-simulated');
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(out).toContain('Simulated model stopped.');
    expect(out).toContain('x-parallax-sim-trial: N');
  });

  it('refuses a bad port or fault with a message that says what to use', async () => {
    const run = promisify(execFile);
    await expect(run(process.execPath, [BIN, 'sim-server', '--port', '70000'], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining('--port must be a whole number from 0 to 65535'),
    });
    await expect(run(process.execPath, [BIN, 'sim-server', '--fault', 'boom'], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining('Valid faults: 429-once'),
    });
  });
});

describe('parallax tasks', () => {
  it('lists every built-in task with its title and what it exercises', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'tasks'], { env });
    for (const t of BUILTIN_TASKS)
      expect(stdout).toMatch(
        new RegExp(`^${t.id}\\s+${t.title}\\s+${t.about.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
      );
    const json = JSON.parse((await promisify(execFile)(process.execPath, [BIN, 'tasks', '--json'], { env })).stdout);
    expect(json.map((t: { id: string }) => t.id)).toEqual(BUILTIN_TASKS.map((t) => t.id));
  });
});
