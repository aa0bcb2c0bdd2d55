/**
 * Every recorded provider shape through the real worker path: the host spawns a worker process, the worker's
 * engine talks to a loopback replay server, events are stored as JSONL. What is stored must equal what the
 * provider sent (calls, usage and its source), what went back to the provider must carry its round-trip
 * fields, and the API key must appear nowhere on disk.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FORMATS } from '../../../shared/ipc-contract.js';
import type { ModelResponseEvent, RunFinishedEvent, StepEvent, ToolFinishedEvent } from '../../../shared/step-event.js';
import { jsonReply, type ReplayReply, type ReplayScript } from '../../helpers/replay-server.js';
import { wireHost } from '../../helpers/wire-host.js';
import { ANSWER, WIRE_SHAPES } from '../../helpers/wire-shapes.js';
import { FAILURE_SHAPES, STALL_SHAPES, STATUS_SHAPES, okText } from '../../helpers/wire-failures.js';

const KEY = 'sk-replay-4c1d9e7a2b8f6053';
const host = wireHost(KEY);
/** Run the task once in ReAct mode against `replies`; returns the stored events and what the server received. */
const compare = (replies: ReplayScript, settings: Record<string, unknown> = {}) => host.compare(replies, { settings });

const responses = (events: readonly StepEvent[]) =>
  events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
const finished = (events: readonly StepEvent[]) =>
  events.find((e): e is RunFinishedEvent => e.type === 'run-finished')!;

/** Every file under `dir`, read as text. */
async function allText(dir: string): Promise<string> {
  let out = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

// Each case spawns a worker process; on a loaded machine one takes far longer than its own work.
describe('recorded provider shapes through host + worker', () => {
  for (const shape of WIRE_SHAPES) {
    it(`${shape.name}: stores the calls and usage sent, and sends back what the provider needs (${shape.source})`, async () => {
      const { events, server, dataDir } = await compare(shape.replies);
      const fin = finished(events);
      expect(fin.status, fin.error).toBe('answered');
      expect(fin.answer).toBe(ANSWER);
      const steps = responses(events);
      expect(steps).toHaveLength(2);
      expect(steps[0].toolCalls).toEqual(
        shape.expect.calls.map((c) => ({ ...c, id: typeof c.id === 'string' ? c.id : expect.stringMatching(c.id) })),
      );
      // Each call ran with its own arguments: both files were read.
      const outputs = events.filter((e): e is ToolFinishedEvent => e.type === 'tool-finished').map((e) => e.output);
      for (const c of shape.expect.calls)
        expect(outputs.some((o) => o.includes(c.arguments.includes('a.txt') ? 'alpha' : 'beta'))).toBe(true);
      steps.forEach((s, i) => {
        const want = shape.expect.usage[i];
        if (want === 'estimated') {
          expect(s.usageSource).toBe('estimated');
          expect(s.usage!.prompt).toBeGreaterThan(0);
        } else {
          expect(s.usageSource).toBe('reported');
          expect(s.usage).toEqual(want);
        }
      });
      if (shape.expect.reasoningText) expect(steps[0].reasoningText).toBe(shape.expect.reasoningText);
      const [, second] = server.chatRequests();
      expect(shape.expect.roundTrip?.(second) ?? []).toEqual([]);
      // The key went to the provider, and nowhere else.
      expect(second.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(await allText(dataDir)).not.toContain(KEY);
    });
  }
});

describe('broken replies through host + worker', () => {
  for (const f of FAILURE_SHAPES) {
    it(`${f.name}: ${f.retried ? 'retried, then answered' : 'ends the run with the reason'}`, async () => {
      const { events, server } = await compare(f.replies, { maxRetries: 1 });
      const fin = finished(events);
      const retry = events.find((e) => e.type === 'model-retry');
      if (f.retried) {
        expect(fin.status, fin.error).toBe('answered');
        expect(retry?.type === 'model-retry' && retry.message).toMatch(f.error);
        expect(server.chatRequests()).toHaveLength(2);
        // Nothing of the broken reply was used: no tool ran on cut arguments.
        expect(events.some((e) => e.type === 'tool-started')).toBe(false);
      } else {
        expect(fin.status).toBe('error');
        expect(fin.error).toMatch(f.error);
      }
    });
  }

  // A stall, a keep-alive trickle and an endless drip end at the configured times, saying which bound ended them.
  // The other bound is set far away, so that a slow machine cannot make the wrong one fire first.
  const idle = { maxRetries: 0, streamIdleTimeoutMs: 1000, requestDeadlineMs: 30_000 };
  const deadline = { maxRetries: 0, streamIdleTimeoutMs: 30_000, requestDeadlineMs: 2500 };
  const stalls: [string, ReplayReply, typeof idle, RegExp, number][] = [
    [
      'a stream that stalls after the headers',
      STALL_SHAPES.stall,
      idle,
      /No data from .* for 1 s after 0 chunks/,
      1000,
    ],
    [
      'a keep-alive trickle',
      STALL_SHAPES.trickle,
      idle,
      /for 1 s after 0 chunks \(\d+ keep-alive comments? only\)/,
      1000,
    ],
    ['an endless drip of data', STALL_SHAPES.drip, deadline, /passed its 2\.5 s deadline after \d+ chunks/, 2500],
  ];
  for (const [label, reply, settings, error, boundMs] of stalls) {
    it(`${label} ends the run at its bound`, async () => {
      const { events } = await compare([reply, okText()], settings);
      const fin = finished(events);
      expect(fin.status).toBe('error');
      expect(fin.error).toMatch(error);
      // The request lasted at least the bound: it was the bound that ended it.
      const req = events.find((e) => e.type === 'model-request')!;
      expect(fin.t - req.t).toBeGreaterThanOrEqual(boundMs - 100);
    });
  }

  it('a provider that refuses stream_options is asked again without it, visibly, and the run goes on', async () => {
    const shape = STATUS_SHAPES.find((s) => s.name.includes('stream_options'))!;
    const { events, server } = await compare(
      [shape.replies[0], WIRE_SHAPES.find((s) => s.name === 'lmstudio-no-usage')!.replies[1]],
      { maxRetries: 0 },
    );
    expect(finished(events).status).toBe('answered');
    const retry = events.find((e) => e.type === 'model-retry');
    expect(retry?.type === 'model-retry' && retry.message).toMatch(
      /does not accept stream_options.*Sent again without it/,
    );
    const [first, second] = server.chatRequests();
    expect(first.body).toHaveProperty('stream_options');
    expect(second.body).not.toHaveProperty('stream_options');
    expect(responses(events)[0].usageSource).toBe('estimated');
  });

  it('a provider that echoes the key in its error body: the key is in no event, no stored file and no report', async () => {
    const { events, dataDir, host, id, server } = await compare((req) =>
      jsonReply(401, { error: { message: `Invalid key: ${String(req.headers.authorization)}` } }),
    );
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(finished(events).error).toMatch(/rejected the API key \(401: Invalid key: Bearer \*\*\*\)/);
    expect(JSON.stringify(events)).not.toContain(KEY);
    for (const format of REPORT_FORMATS) {
      const r = await host['report:export'](id, format);
      const text = r.status === 'download' ? r.content : r.status === 'saved' ? await readFile(r.path, 'utf8') : '';
      expect(text.length, format).toBeGreaterThan(0);
      expect(text, format).not.toContain(KEY);
    }
    expect(await allText(dataDir)).not.toContain(KEY);
  });
});
