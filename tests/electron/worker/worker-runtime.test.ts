import { fork, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { WorkerToHost } from '../../../electron/worker/worker-protocol.js';
import { workerEntry } from '../../../electron/host/launcher.js';
import { SYNTHETIC_WORKER } from '../../helpers/synthetic-worker-path.js';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const spec = {
  runId: 'w-react',
  task: { id: null, text: 'x' },
  mode: 'react' as const,
  apiKeyEnv: null,
  settings: DEFAULT_SETTINGS,
  workspace: tmpdir(),
  provider: { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', simulated: false },
};

describe('worker runtime', () => {
  it('says it must be started by the host when run without an IPC channel', async () => {
    const child = spawn(process.execPath, ['--import', tsx, workerEntry('worker-main')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise((r) => child.on('close', r));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/started by the host and needs its IPC channel/);
  });

  it('waits for go after ready, and leaves when the host goes away instead of running on as an orphan', async () => {
    const child = fork(SYNTHETIC_WORKER, ['--events', '3', '--then', 'hang'], {
      execArgv: ['--import', tsx],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const messages: WorkerToHost[] = [];
    child.on('message', (m) => messages.push(m as WorkerToHost));
    child.send({ type: 'init', spec, apiKey: null });
    await new Promise<void>((r) => {
      const t = setInterval(() => messages.some((m) => m.type === 'ready') && (clearInterval(t), r()), 10);
    });
    // A pause to prove something does NOT happen: the protocol has no message the worker would answer while it
    // waits, so there is no state to wait on instead. A worker that ran early would send its events within it.
    await new Promise((r) => setTimeout(r, 300));
    expect(messages.filter((m) => m.type === 'events')).toEqual([]); // nothing runs before go
    child.send({ type: 'go' });
    await new Promise<void>((r) => {
      const t = setInterval(() => messages.some((m) => m.type === 'events') && (clearInterval(t), r()), 10);
    });
    // It was told to hang after its events: only the host going away can end it within the test's own timeout.
    child.disconnect();
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
      child.on('exit', (c, s) => r([c, s])),
    );
    expect(signal).toBeNull(); // it left by itself, nobody killed it
    expect(code).toBe(0);
  });
});

describe('events that cannot be sent', () => {
  it('an event the channel cannot encode arrives as a run-warning with its seq: no silent gap', async () => {
    const child = fork(SYNTHETIC_WORKER, ['--events', '6', '--unsendable', '3'], {
      execArgv: ['--import', tsx],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const events: { seq: number; type: string; message?: string }[] = [];
    child.on('message', (m) => {
      const message = m as WorkerToHost;
      if (message.type === 'ready') child.send({ type: 'go' });
      if (message.type === 'events') events.push(...(message.events as unknown as typeof events));
    });
    child.send({ type: 'init', spec, apiKey: null });
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(0);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(events[3].type).toBe('run-warning');
    expect(events[3].message).toMatch(
      /^Event 3 \(.+\) of this run could not be sent to the app and is missing from the record: .*BigInt/,
    );
    expect(events.at(-1)!.type).toBe('run-finished');
  });
});
