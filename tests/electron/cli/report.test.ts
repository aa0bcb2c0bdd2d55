/**
 * `parallax report` as a user runs it: real child processes, a real history written by `parallax compare`.
 */
import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FORMATS } from '../../../shared/ipc-contract.js';
import { buildReport, loadReportJson } from '../../../electron/host/reports/index.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { CLI, cliEnv, liveComparison, parallax, ROOT, type LiveComparison } from '../host/reports/live-comparison.js';
import { runLogsWith } from '../../helpers/run-logs.js';

let live: LiveComparison;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  live = await liveComparison(['--task', 'log-stats']);
  env = cliEnv(live.dataDir);
});

describe('parallax report', () => {
  it('writes each format to stdout, exactly what the builder makes from history', async () => {
    for (const f of REPORT_FORMATS) {
      const res = await parallax(['report', live.id, '--format', f], env);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe((await buildReport(live.stored, f)).content);
    }
  });

  it('resolves "latest" and a unique id prefix', async () => {
    const latest = await parallax(['report', 'latest', '--format', 'md'], env);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toContain(live.id);
    const prefix = await parallax(['report', live.id.slice(0, 12), '--format', 'csv'], env);
    expect(prefix.code, prefix.stderr).toBe(0);
    expect(prefix.stdout).toBe((await buildReport(live.stored, 'csv')).content);
  });

  it('writes to -o FILE, taking the format from its extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-report-out-'));
    const file = join(dir, 'cmp.json');
    const res = await parallax(['report', live.id, '-o', file], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(file);
    expect(loadReportJson(await readFile(file, 'utf8')).meta.id).toBe(live.id);
  });

  it('says how to find ids when the comparison does not exist', async () => {
    const res = await parallax(['report', 'no-such-comparison', '--format', 'md'], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('No comparison "no-such-comparison"');
    expect(res.stderr).toContain('parallax history');
  });

  it('rejects an unknown format, naming the ones it knows', async () => {
    const res = await parallax(['report', live.id, '--format', 'pdf'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Unknown report format "pdf". Use one of: html, md, csv, json, otlp.');
  });

  it('explains an empty history when asked for the latest', async () => {
    const res = await parallax(['report', 'latest'], cliEnv(await mkdtemp(join(tmpdir(), 'parallax-empty-'))));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no comparison in the history.*parallax compare/);
  });
});

describe('a comparison with trials', () => {
  it('reports `parallax compare --trials 2` exactly as the builder does from history, in every format', async () => {
    const c = await liveComparison(['--task', 'calc', '--trials', '2']);
    expect(c.stored.meta.runs.map((r) => r.trial)).toEqual([1, 1, 2, 2]);
    const runEnv = cliEnv(c.dataDir);
    for (const f of REPORT_FORMATS) {
      const res = await parallax(['report', c.id, '--format', f], runEnv);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe((await buildReport(c.stored, f)).content);
    }
    const md = await parallax(['report', c.id, '--format', 'md'], runEnv);
    expect(md.stdout).toContain('## Average over 2 trials');
  });
});

describe('cancelled runs', () => {
  it('reports a comparison cancelled with Ctrl+C, showing each run as cancelled with the reason', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cancel-'));
    const env = cliEnv(dataDir);
    // The hang fault holds every model request open, so the runs are mid-request when Ctrl+C arrives.
    const child = spawn(process.execPath, [CLI, 'compare', '--task', 'log-stats', '--fault', 'hang'], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    // Both runs' first requests (held open) are on record before Ctrl+C.
    await new Promise<void>((done) => {
      const poll = setInterval(() => {
        if ((/started/.test(out) && runLogsWith(dataDir, 'model-request') >= 2) || child.exitCode !== null) {
          clearInterval(poll);
          done();
        }
      }, 100);
    });
    expect(child.exitCode).toBeNull();
    child.kill('SIGINT');
    await exited;
    const res = await parallax(['report', 'latest', '--format', 'html'], env);
    expect(res.code, res.stderr).toBe(0);
    const statuses = [...res.stdout.matchAll(/data-metric="status">([^<]*)</g)].map((m) => m[1]);
    expect(statuses).toEqual(['cancelled', 'cancelled']);
    expect(res.stdout).toContain('No run answered, so no mode is called cheaper.');
    const md = await parallax(['report', 'latest', '--format', 'md'], env);
    expect(md.stdout).toMatch(/\| Status \| cancelled \| cancelled \|/);
  });
});

describe('secrets', () => {
  const KEY = 'sk-test-123-parallax-secret-0f9e8d7c6b5a';
  let sim: SimServer;
  let proxy: Server;
  const seenAuth: string[] = [];

  beforeAll(async () => {
    sim = await startSimServer();
    const target = new URL(sim.url);
    // A pass-through in front of the simulated model, to prove the key really went out on the wire.
    proxy = createServer((req, res) => {
      // Model requests carry the key; the host's unauthenticated probe of /models (is this the simulated
      // model?) carries none, and that is fine.
      if (req.url?.endsWith('/chat/completions')) seenAuth.push(String(req.headers.authorization ?? ''));
      const up = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  });

  afterAll(async () => {
    await new Promise((done) => proxy?.close(done));
    await sim?.close();
  });

  it('never writes the API key into history or any report format', async () => {
    const port = (proxy.address() as AddressInfo).port;
    const c = await liveComparison(
      [
        '--task',
        'log-stats',
        '--base-url',
        `http://127.0.0.1:${port}/v1`,
        '--model',
        'sim',
        '--api-key-env',
        'PARALLAX_TEST_KEY',
      ],
      { PARALLAX_TEST_KEY: KEY },
    );
    expect(seenAuth.length).toBeGreaterThan(0);
    expect(seenAuth.every((a) => a === `Bearer ${KEY}`)).toBe(true);
    expect(c.stored.events.some((e) => e.type === 'run-finished' && e.status === 'answered')).toBe(true);
    const runEnv = cliEnv(c.dataDir, { PARALLAX_TEST_KEY: KEY });
    for (const f of REPORT_FORMATS) {
      const res = await parallax(['report', c.id, '--format', f], runEnv);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout.length).toBeGreaterThan(100);
      expect(res.stdout).not.toContain(KEY);
      expect(res.stdout).not.toContain('sk-test-123');
    }
    const files = await readdir(c.dataDir, { recursive: true, withFileTypes: true });
    for (const f of files.filter((d) => d.isFile())) {
      expect(await readFile(join(f.parentPath, f.name), 'utf8'), f.name).not.toContain(KEY);
    }
  });
});
