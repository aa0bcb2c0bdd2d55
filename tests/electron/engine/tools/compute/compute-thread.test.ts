/** The compute thread: jobs stopped at their deadline or on abort, memory-hungry jobs contained, the queue kept. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputeError, ComputeThread } from '../../../../../electron/engine/tools/compute/compute-thread.js';

/** Runs 1–2 s on these machines: long enough to be stopped, short enough to finish when allowed. */
const SLOW = 'sum(cumsum(1:1e6))';

let thread: ComputeThread;
beforeAll(async () => {
  thread = new ComputeThread({ memoryMb: 64 });
  await thread.warmUp();
});
afterAll(() => thread.dispose());

const failureOf = (promise: Promise<unknown>): Promise<ComputeError> =>
  promise.then(
    () => {
      throw new Error('expected the job to fail');
    },
    (e: unknown) => e as ComputeError,
  );

describe('ComputeThread', () => {
  it('stops a job at its deadline by terminating the thread, keeping the worker responsive, then runs the next', async () => {
    const before = thread.threadsStarted;
    // The worker's own loop never waits on the calculation: a timer due while the job computes fires before the job
    // settles (were the job computed on this thread, the timer could only fire once the job was done).
    const order: string[] = [];
    const job = failureOf(thread.run('calc', { expression: SLOW }, { timeoutMs: 150 })).finally(() =>
      order.push('settled'),
    );
    setTimeout(() => order.push('loop ran'), 20);
    const error = await job;
    expect(error.kind).toBe('time');
    expect(order).toEqual(['loop ran', 'settled']);
    expect(thread.threadsStarted).toBe(before + 1); // terminated and replaced, not waited for
    // A fresh thread loads the math library inside this job's limit: generous, a busy machine is not the subject.
    expect(await thread.run('calc', { expression: '2^10' }, { timeoutMs: 30_000 })).toEqual({ number: 1024 });
  });

  it('an aborted call (a program reaching its time limit) stops its job at once', async () => {
    const controller = new AbortController();
    const before = thread.threadsStarted;
    const pending = failureOf(
      thread.run('calc', { expression: SLOW }, { timeoutMs: 30_000, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    const error = await pending;
    // Ended by the abort (not by its 30 s deadline, not by finishing), and its thread terminated rather than waited for.
    expect(error.kind).toBe('cancel');
    expect(error.message).toMatch(/cancelled/);
    expect(thread.threadsStarted).toBe(before + 1);
  });

  it('a job waiting behind a stopped one runs on the fresh thread; a waiting job whose call is aborted is dropped', async () => {
    const controller = new AbortController();
    const slow = failureOf(thread.run('calc', { expression: SLOW }, { timeoutMs: 100 }));
    const dropped = failureOf(
      thread.run('calc', { expression: '1 + 1' }, { timeoutMs: 30_000, signal: controller.signal }),
    );
    const next = thread.run(
      'search',
      {
        query: 'web page',
        docs: [{ id: 'fetch_url', name: 'fetch_url', description: 'Download a web page', params: 'url' }],
        limit: 5,
      },
      { timeoutMs: 30_000 },
    );
    controller.abort();
    expect((await slow).kind).toBe('time');
    expect((await dropped).kind).toBe('cancel');
    expect((await next).map((r) => r.name)).toEqual(['fetch_url']);
  });

  it('a job that needs more memory than allowed kills only the thread', async () => {
    const small = new ComputeThread({ memoryMb: 48 });
    try {
      await small.warmUp();
      const error = await failureOf(
        // Ten 1000×1000 matrices alive at once (each right operand is evaluated while its left one is held): about
        // 80 MB against a 48 MB cap, so no GC timing lets it fit. With 1 GB it answers 10,000,000.
        small.run(
          'calc',
          { expression: `sum(${'ones(1000,1000) + ('.repeat(9)}ones(1000,1000)${')'.repeat(9)})` },
          { timeoutMs: 30_000 },
        ),
      );
      expect(error.kind).toBe('memory');
      expect(error.message).toContain('more than the 48 MB');
      expect(await small.run('calc', { expression: '1 + 1' }, { timeoutMs: 30_000 })).toEqual({ number: 2 });
    } finally {
      small.dispose();
    }
  });

  it('a page nested 200,000 deep fails inside the thread (stack, memory or time), and the thread serves on', async () => {
    const error = await failureOf(thread.run('html', { html: '<div>'.repeat(200_000) }, { timeoutMs: 30_000 }));
    expect(['stack', 'memory', 'time']).toContain(error.kind);
    expect(await thread.run('html', { html: '<title>T</title><p>ok</p>' }, { timeoutMs: 30_000 })).toEqual({
      title: 'T',
      text: 'ok',
    });
  });
});
