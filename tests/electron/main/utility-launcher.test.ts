import type { ForkOptions, UtilityProcess } from 'electron';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceNameFor, utilityLauncher } from '../../../electron/main/utility-launcher.js';
import { WORKER_V8_FLAGS } from '../../../electron/host/launcher.js';
import type { HostToWorker, WorkerToHost } from '../../../electron/worker/worker-protocol.js';
import type { RunSpec } from '../../../shared/run-spec.js';

/** A utility process that records what it was sent and lets the test speak for the worker. */
class FakeUtilityProcess extends EventEmitter {
  pid: number | undefined = 4242;
  stderr = new PassThrough();
  stdout = null;
  posted: unknown[] = [];
  killed = 0;
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  kill() {
    this.killed++;
    return true;
  }
}

function setup() {
  const forks: { modulePath: string; args: string[]; options: ForkOptions; child: FakeUtilityProcess }[] = [];
  const launcher = utilityLauncher({
    entry: '/app/dist/electron/worker/worker-main.js',
    drainMs: 50,
    fork: (modulePath, args, options) => {
      const child = new FakeUtilityProcess();
      forks.push({ modulePath, args, options, child });
      return child as unknown as UtilityProcess;
    },
  });
  return { launcher, forks };
}

const spec = { runId: 'c1-react' } as unknown as RunSpec;

describe('utilityLauncher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('forks the worker entry with no argv, the given env and a per-run service name', () => {
    const { launcher, forks } = setup();
    launcher.launch({ env: { PATH: '/bin' }, name: 'c1-react' });
    expect(forks).toHaveLength(1);
    expect(forks[0].modulePath).toBe('/app/dist/electron/worker/worker-main.js');
    expect(forks[0].args).toEqual([]);
    expect(forks[0].options.env).toEqual({ PATH: '/bin', HOME: tmpdir(), PARALLAX_HOST_PID: String(process.pid) });
    expect(forks[0].options.serviceName).toBe('Parallax run c1-react');
    // The forked worker's V8 flags (its measured memory depends on them).
    expect(forks[0].options.execArgv).toEqual([...WORKER_V8_FLAGS]);
    expect(WORKER_V8_FLAGS.length).toBeGreaterThan(0);
    expect(forks[0].options.stdio).toEqual(['ignore', 'ignore', 'pipe']);
  });

  it('gives the worker only the allowlisted environment: no keys, tokens or NODE_OPTIONS of the host', () => {
    const { launcher, forks } = setup();
    launcher.launch({
      env: {
        PATH: '/bin',
        LANG: 'C.UTF-8',
        OPENAI_API_KEY: 'sk-x',
        GITHUB_TOKEN: 'g',
        NODE_OPTIONS: '--require /evil.cjs',
        HOME: '/home/me',
      },
      name: 'c1-react',
    });
    expect(forks[0].options.env).toEqual({
      PATH: '/bin',
      LANG: 'C.UTF-8',
      HOME: tmpdir(),
      PARALLAX_HOST_PID: String(process.pid),
    });
  });

  it('sends the spec and key by postMessage only', () => {
    const { launcher, forks } = setup();
    const handle = launcher.launch({ env: {}, name: 'c1-react' });
    const init: HostToWorker = { type: 'init', spec, apiKey: 'sk-secret' };
    handle.send(init);
    expect(forks[0].child.posted).toEqual([init]);
    const options = JSON.stringify(forks[0].options) + JSON.stringify(forks[0].args);
    expect(options).not.toContain('sk-secret');
    expect(handle.pid).toBe(4242);
  });

  it('delivers well-formed worker messages and drops the rest', () => {
    const { launcher, forks } = setup();
    const handle = launcher.launch({ env: {}, name: 'r' });
    const got: WorkerToHost[] = [];
    handle.onMessage((m) => got.push(m));
    forks[0].child.emit('message', { type: 'ready' });
    forks[0].child.emit('message', { type: 'events' });
    forks[0].child.emit('message', 'junk');
    forks[0].child.emit('message', { type: 'events', events: [] });
    expect(got).toEqual([{ type: 'ready' }, { type: 'events', events: [] }]);
  });

  it('reports the exit once, after messages still in flight, with the stderr tail', async () => {
    const { launcher, forks } = setup();
    const handle = launcher.launch({ env: {}, name: 'r' });
    const order: string[] = [];
    handle.onMessage((m) => order.push(m.type));
    handle.onExit((exit) => order.push(`exit:${exit.code}:${exit.stderrTail}`));
    forks[0].child.stderr.write('boom: something broke\n');
    await vi.advanceTimersByTimeAsync(0);
    forks[0].child.emit('exit', 1);
    forks[0].child.emit('message', { type: 'fatal', message: 'dying' });
    expect(order).toEqual(['fatal']);
    await vi.advanceTimersByTimeAsync(50);
    forks[0].child.emit('message', { type: 'ready' });
    expect(order).toEqual(['fatal', 'exit:1:boom: something broke']);
    // A listener added after the exit still hears about it.
    const late = vi.fn();
    handle.onExit(late);
    expect(late).toHaveBeenCalledWith({ code: 1, signal: null, stderrTail: 'boom: something broke' });
  });

  it('kills only a running process and stops sending after exit', async () => {
    const { launcher, forks } = setup();
    const handle = launcher.launch({ env: {}, name: 'r' });
    handle.kill();
    expect(forks[0].child.killed).toBe(1);
    forks[0].child.emit('exit', 0);
    handle.kill();
    handle.send({ type: 'go' });
    expect(forks[0].child.killed).toBe(1);
    expect(forks[0].child.posted).toEqual([]);
  });

  it('keeps service names short and printable', () => {
    expect(serviceNameFor('c-20261130-abc/react trial 2')).toBe('Parallax run c-20261130-abc-react-trial-2');
    expect(serviceNameFor('x'.repeat(100)).length).toBeLessThanOrEqual('Parallax run '.length + 48);
  });
});
