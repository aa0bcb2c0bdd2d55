/**
 * The real CLI (`node bin/parallax.js run … --base-url <replay>`) against every recorded provider shape: the
 * JSON result and the event log carry the calls and usage the provider sent, estimated usage is marked as
 * such in the live table and in --json, broken streams end as errors, `--settings` reaches the engine, and
 * the API key never appears in stdout, stderr or the event log.
 */
import { describe, expect, it } from 'vitest';
import type { ModelResponseEvent } from '../../../shared/step-event.js';
import { cliReplay } from '../../helpers/cli-replay.js';
import type { ReplayReply } from '../../helpers/replay-server.js';
import { ANSWER, WIRE_SHAPES } from '../../helpers/wire-shapes.js';
import { FAILURE_SHAPES, STALL_SHAPES, STATUS_SHAPES, okText } from '../../helpers/wire-failures.js';

const KEY = 'sk-replay-cli-7e5d3c1b9a08';
const cli = cliReplay(KEY);
const exec = cli.exec;

/** `parallax run` of the shared task against `replies`, JSON or table output, with the event log. */
async function run(replies: readonly ReplayReply[], opts: { json?: boolean; settings?: Record<string, unknown> } = {}) {
  const r = await cli.run(replies, [
    ...(opts.json === false ? [] : ['--json']),
    ...(opts.settings ? ['--settings', JSON.stringify(opts.settings)] : []),
  ]);
  expect(r.stdout + r.stderr + r.log).not.toContain(KEY);
  return r;
}

interface JsonOut {
  status: string;
  answer: string;
  error: string | null;
  usage: { prompt: number; completion: number; total: number; source: string };
  perStep: {
    step: number;
    prompt: number;
    completion: number;
    cached: number;
    reasoning: number;
    total: number;
    usageSource: string | null;
  }[];
}

// Each case is its own CLI process; they run a few at a time.
describe.concurrent('parallax run against recorded provider shapes', () => {
  for (const shape of WIRE_SHAPES) {
    it(`${shape.name}: --json and the event log hold what the provider sent`, async () => {
      const r = await run(shape.replies);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as JsonOut;
      expect(out).toMatchObject({ status: 'answered', answer: ANSWER });
      const steps = r.events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
      expect(steps[0].toolCalls).toEqual(
        shape.expect.calls.map((c) => ({ ...c, id: typeof c.id === 'string' ? c.id : expect.stringMatching(c.id) })),
      );
      const estimated = shape.expect.usage.filter((u) => u === 'estimated').length;
      expect(out.usage.source).toBe(
        estimated === 0 ? 'reported' : estimated === shape.expect.usage.length ? 'estimated' : 'mixed',
      );
      shape.expect.usage.forEach((want, i) => {
        const step = out.perStep[i];
        if (want === 'estimated') {
          expect(step.usageSource).toBe('estimated');
          expect(step.prompt).toBe(steps[i].usage!.prompt);
        } else {
          expect(step).toMatchObject({
            usageSource: 'reported',
            prompt: want.prompt,
            completion: want.completion,
            cached: want.cached ?? 0,
            reasoning: want.reasoning ?? 0,
            total: want.total ?? want.prompt + want.completion,
          });
        }
      });
      expect(out.usage.total).toBe(out.perStep.reduce((n, s) => n + s.total, 0));
      expect(shape.expect.roundTrip?.(r.server.chatRequests()[1]) ?? []).toEqual([]);
    });
  }

  it('marks estimated figures with ≈ in the live table and says why under it', async () => {
    const r = await run(WIRE_SHAPES.find((s) => s.name === 'lmstudio-no-usage')!.replies, { json: false });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\s+1\s+≈\d+\s+≈\d+\s+\d+ms\s+read_file, read_file$/m);
    expect(r.stdout).toMatch(
      /tokens \(≈ estimated with the tokenizer for 2 of 2 steps: the provider reported no usage\)/,
    );
  });

  for (const f of FAILURE_SHAPES) {
    it(`${f.name}: ${f.retried ? 'retried, then answered' : 'an error run, exit 1'}`, async () => {
      const r = await run(f.replies, { settings: { maxRetries: 1 } });
      const out = JSON.parse(r.stdout) as JsonOut;
      if (f.retried) {
        expect(out.status, out.error ?? '').toBe('answered');
        const retry = r.events.find((e) => e.type === 'model-retry');
        expect(retry?.type === 'model-retry' && retry.message).toMatch(f.error);
      } else {
        expect(r.code).toBe(1);
        expect(out).toMatchObject({ status: 'error', error: expect.stringMatching(f.error) });
      }
    });
  }

  // --settings reaches the engine: the idle timeout and the deadline end a stall and a drip, saying so.
  // Each test sets the other bound far away, so that a slow machine cannot make the wrong one fire first.
  it('a stall after two chunks ends at the idle timeout set with --settings', async () => {
    const r = await run([STALL_SHAPES.stallAfterChunks, okText()], {
      settings: { maxRetries: 0, streamIdleTimeoutMs: 1000, requestDeadlineMs: 30_000 },
    });
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as JsonOut).error).toMatch(
      /No data from .* for 1 s after 2 chunks; the stream was abandoned\. Raise "stream idle timeout"/,
    );
  });

  it('an endless drip ends at the deadline set with --settings', async () => {
    const r = await run([STALL_SHAPES.drip, okText()], {
      settings: { maxRetries: 0, streamIdleTimeoutMs: 30_000, requestDeadlineMs: 2000 },
    });
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as JsonOut).error).toMatch(/passed its 2 s deadline after \d+ chunks?/);
  });

  it('rejects bad --settings with the field and its range', async () => {
    const r = await exec(['run', '--task', 'calc', '--settings', '{"streamIdleTimeoutMs": 5}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/streamIdleTimeoutMs: .*1000.*Fix these values/);
  });

  for (const name of ['401 key', '402 credits', '400 tools unsupported']) {
    it(`${name}: an error run with its cause, exit 1, the key nowhere in the output`, async () => {
      const s = STATUS_SHAPES.find((x) => x.name === name)!;
      const r = await run(s.replies);
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout) as JsonOut;
      expect(out.error).toMatch(s.error);
      if (s.not) expect(out.error).not.toMatch(s.not);
    });
  }
});
