import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { exited, runCli, startCli } from '../host/cli-process.js';
import { waitFor } from '../host/session-helpers.js';

describe('parallax serve', () => {
  it('refuses a non-loopback address and a missing renderer build, saying what to do', async () => {
    const env = { ...process.env, PARALLAX_DATA_DIR: await mkdtemp(join(tmpdir(), 'parallax-serve-')) };
    const bind = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], env);
    expect(bind.code).toBe(1);
    expect(bind.stderr).toMatch(/listens on 127\.0\.0\.1 only/);
    const missing = await runCli(['serve', '--port', '0', '--renderer', join(tmpdir(), 'no-such-renderer')], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Run `npm run build`/);
  });

  it('prints a tokened URL, serves the page and the socket, and stops cleanly on Ctrl+C', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-serve-'));
    const renderer = await mkdtemp(join(tmpdir(), 'parallax-renderer-'));
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>Parallax served</title>');
    const cli = startCli(['serve', '--port', '0', '--renderer', renderer], {
      ...process.env,
      PARALLAX_DATA_DIR: dataDir,
    });
    await waitFor(
      () => /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(cli.output.stdout) || cli.exitCode !== null,
      30_000,
      'the URL',
    );
    const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(cli.output.stdout)![0]);
    expect(url.searchParams.get('token')!.length).toBeGreaterThanOrEqual(32);
    expect(await (await fetch(url)).text()).toContain('Parallax served');

    const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, {
      headers: { origin: url.origin },
    });
    const reply = await new Promise<unknown>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ kind: 'invoke', id: 1, channel: 'app:info', args: [] })));
      ws.on('message', (d) => resolve(JSON.parse(d.toString())));
      ws.on('error', reject);
    });
    expect(reply).toMatchObject({ kind: 'result', id: 1, ok: true, value: { host: 'web', dataDir } });
    ws.close();

    cli.kill('SIGINT');
    const result = await exited(cli);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Stopping/);
  });
});
