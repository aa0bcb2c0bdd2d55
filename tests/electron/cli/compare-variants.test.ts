/**
 * `parallax compare --variants` and `--models × --modes` end to end on the simulated model: columns labelled by
 * what differs, each run with its own settings and key, the matrix in --json and in the reports, and clear
 * errors for bad columns.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunStartedEvent } from '../../../shared/step-event.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { buildReport } from '../../../electron/host/reports/index.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { runCli } from '../host/cli-process.js';

async function env(extra: NodeJS.ProcessEnv = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-variants-'));
  const e: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir, ...extra };
  delete e.OPENAI_API_KEY;
  return { dataDir, env: e };
}

interface Out {
  comparisonId: string;
  runs: {
    runId: string;
    mode: string;
    label: string;
    column: { key: string; label: string };
    steps: number;
    status: string;
  }[];
  columns: { key: string; label: string; mode: string }[];
  byMode: Record<string, { column: { key: string } }>;
  matrix?: { rows: string[]; modes: string[]; cells: ({ runIds: string[]; figures: { trials: number } } | null)[][] };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A loopback proxy in front of a server that records the Authorization header of every chat request. */
async function authRecorder(target: string): Promise<{ url: string; auth: string[] }> {
  const to = new URL(target.replace(/\/+$/, '') + '/');
  const auth: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url?.endsWith('/chat/completions')) auth.push(String(req.headers.authorization ?? ''));
    const up = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, auth };
}

describe('parallax compare with variants', () => {
  it('--variants: two Code Mode columns labelled by their difference, each run with its own returnTypes', async () => {
    const { dataDir, env: e } = await env();
    const res = await runCli(
      [
        'compare',
        '--task',
        'time-and-title',
        '--variants',
        '[{"mode":"code","settings":{"returnTypes":false}},{"mode":"code"}]',
        '--json',
      ],
      e,
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as Out;
    expect(
      out.runs.map((r) => [
        r.runId.slice(out.comparisonId.length + 1),
        r.column.key,
        r.column.label,
        r.label,
        r.status,
      ]),
    ).toEqual([
      ['code-1', 'code-1', 'Code Mode · no return types', 'Code Mode · no return types', 'answered'],
      ['code', 'code', 'Code Mode', 'Code Mode', 'answered'],
    ]);
    expect(out.columns.map((c) => c.key)).toEqual(['code-1', 'code']);
    expect(Object.keys(out.byMode)).toEqual(['code-1', 'code']);
    // Without return types the simulated model misreads a tool's result once and runs one program more.
    const [without, withTypes] = out.runs;
    expect(without!.steps).toBeGreaterThan(withTypes!.steps);
    const stored = await new HistoryStore(dataDir).open(out.comparisonId);
    const started = stored.events.filter((x): x is RunStartedEvent => x.type === 'run-started');
    expect(Object.fromEntries(started.map((s) => [s.variant?.key, s.settings.returnTypes]))).toEqual({
      'code-1': false,
      code: true,
    });
    expect(res.stderr).toMatch(/\[Code Mode · no return types\]\s+1 /);
  });

  it('--models sim,sim-careful --modes react,code: four columns with model labels, the matrix in --json and in the reports', async () => {
    const { dataDir, env: e } = await env();
    const res = await runCli(
      ['compare', '--task', 'time-and-title', '--models', 'sim,sim-careful', '--modes', 'react,code', '--json'],
      e,
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as Out;
    expect(out.columns.map((c) => [c.key, c.label])).toEqual([
      ['react-1', 'ReAct · sim'],
      ['code-2', 'Code Mode · sim'],
      ['react-3', 'ReAct · sim-careful'],
      ['code-4', 'Code Mode · sim-careful'],
    ]);
    expect(out.matrix?.rows).toEqual(['sim', 'sim-careful']);
    expect(out.matrix?.modes).toEqual(['react', 'code']);
    const cellRuns = out.matrix!.cells.flat().map((c) => c!.runIds[0]!.slice(out.comparisonId.length + 1));
    expect(cellRuns).toEqual(['react-1', 'code-2', 'react-3', 'code-4']);
    const stored = await new HistoryStore(dataDir).open(out.comparisonId);
    const models = stored.events
      .filter((x): x is RunStartedEvent => x.type === 'run-started')
      .map((s) => [s.variant?.key, s.provider.model]);
    expect(Object.fromEntries(models)).toEqual({
      'react-1': 'sim',
      'code-2': 'sim',
      'react-3': 'sim-careful',
      'code-4': 'sim-careful',
    });

    const html = (await buildReport(stored, 'html')).content;
    expect(html).toContain('<section class="matrix" id="matrix">');
    expect(html.match(/<table class="matrix"/g)).toHaveLength(3); // tokens, pass rate, steps (no cost: simulated)
    // Each cell links to its run's timeline section.
    const index = stored.meta.runs.findIndex((r) => r.runId.endsWith('-code-4'));
    expect(html).toContain(`<a href="#mode-${index}">timeline</a>`);
    expect(html).toContain(`id="mode-${index}"`);
    const md = (await buildReport(stored, 'md')).content;
    expect(md).toMatch(/## Matrix \(simulated\)[\s\S]*\| sim-careful \| mean total tokens/);
    const csv = (await buildReport(stored, 'csv')).content.split('\r\n');
    expect(csv[0]).toMatch(/,variant_key,variant_label,matrix_row,run_ids,mean_total,mean_cost,pass_rate,mean_steps$/);
    expect(csv.filter((l) => l.includes(',matrix,'))).toHaveLength(4);
    const json = JSON.parse((await buildReport(stored, 'json')).content) as {
      summary: { matrix?: { rows: string[] } };
    };
    expect(json.summary.matrix?.rows).toEqual(['sim', 'sim-careful']);
  });

  it("two providers in one comparison: each column's requests carry its own key", async () => {
    const sims: SimServer[] = [await startSimServer(), await startSimServer()];
    closers.push(() => Promise.all(sims.map((s) => s.close())).then(() => undefined));
    const [a, b] = [await authRecorder(sims[0]!.url), await authRecorder(sims[1]!.url)];
    const { env: e } = await env({ SERVER_A_KEY: 'key-of-server-a-1234', SERVER_B_KEY: 'key-of-server-b-5678' });
    const variants = JSON.stringify([
      { mode: 'react' },
      { mode: 'react', baseUrl: b.url, apiKeyEnv: 'SERVER_B_KEY', model: 'sim-careful' },
    ]);
    const res = await runCli(
      [
        'compare',
        '--task',
        'calc',
        '--base-url',
        a.url,
        '--model',
        'sim',
        '--api-key-env',
        'SERVER_A_KEY',
        '--variants',
        variants,
        '--json',
      ],
      e,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(a.auth.length).toBeGreaterThan(0);
    expect(b.auth.length).toBeGreaterThan(0);
    expect(new Set(a.auth)).toEqual(new Set(['Bearer key-of-server-a-1234']));
    expect(new Set(b.auth)).toEqual(new Set(['Bearer key-of-server-b-5678']));
    expect((JSON.parse(res.stdout) as Out).columns.map((c) => c.label)).toEqual(['ReAct · sim', 'ReAct · sim-careful']);
  });

  it('refuses bad variants with an error naming the column or the flag', async () => {
    const { env: e } = await env({ MISSING_KEY: '' });
    const cases: [string[], RegExp][] = [
      [['--variants', '[{"mode":"cod"}]'], /--variants: Invalid variant 1 — variants\.1\.mode: must be one of/],
      [['--variants', 'no-such-file.json'], /--variants: no file at .*no-such-file\.json/],
      [
        ['--variants', '[{"mode":"code"}]', '--modes', 'react'],
        /--variants names each column's mode: leave --modes out/,
      ],
      [['--models', 'sim,sim-careful', '--modes', 'react,cod'], /--modes: unknown mode "cod"/],
      // A name the simulated model does not have would run as sim in a column labelled otherwise: refused, as --model is.
      [
        ['--models', 'sim,nosuchmodel', '--modes', 'react'],
        /Variant 2 \(ReAct · nosuchmodel\): The simulated model has no model "nosuchmodel": it answers to sim, sim-careful, sim-hasty/,
      ],
      [
        ['--variants', '[{"mode":"code","model":"sim-b"},{"mode":"code"}]'],
        /Variant 1 \(Code Mode · sim-b\): The simulated model has no model "sim-b"/,
      ],
      [
        ['--variants', '[{"mode":"code","settings":{"maxSteps":0}},{"mode":"code"}]'],
        /Variant 1 \(Code Mode · max 0 steps\): .*maxSteps/,
      ],
      [
        [
          '--variants',
          '[{"mode":"react"},{"mode":"react","baseUrl":"http://127.0.0.1:9/v1","apiKeyEnv":"MISSING_KEY"}]',
        ],
        /Variant 2 \(ReAct · sim \(custom\)\): Provider "custom" needs an API key/,
      ],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(['compare', '--task', 'calc', ...args], e);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr).toMatch(message);
    }
  });
});
