/**
 * Round two of recorded provider shapes (tests/helpers/wire-shapes-2.ts) through the real worker path, in
 * ReAct, Code Mode and ReAct (text): the host spawns a worker, the worker talks to a loopback replay server
 * (OpenAI chat completions, or the Messages API for a custom provider with protocol anthropic), and what is
 * stored must be what the wire said: usage wherever the server put it, the calls it meant, refusals and content
 * filters as their own outcome with the provider's words, cut calls not run, an empty reply retried, and
 * Anthropic's paused turn continued with every block sent back.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ModelResponseEvent, RunFinishedEvent, StepEvent, ToolFinishedEvent } from '../../../shared/step-event.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import { startReplayServer, type ReplayServer } from '../../helpers/replay-server.js';
import { TASK, WORKSPACE_FILES } from '../../helpers/wire-shapes.js';
import { WIRE_SHAPES_2, type Expect2 } from '../../helpers/wire-shapes-2.js';

const KEY = 'sk-replay-2-9d8c7b6a5f4e';
const dirs: string[] = [];
const open: { host: Host; server: ReplayServer }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await Promise.all([o.host.close(), o.server.close()]);
});
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(prefix: string): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Check stored events and the requests the server saw against a shape's expectation; returns problems. */
export function judge(events: readonly StepEvent[], requests: number, second: Parameters<NonNullable<Expect2['roundTrip']>>[0] | undefined, want: Expect2): void {
  const fin = events.find((e): e is RunFinishedEvent => e.type === 'run-finished')!;
  const steps = events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
  expect(fin.status, fin.error).toBe(want.status);
  expect(requests).toBe(want.requests);
  if (want.status === 'refused') {
    expect(fin.answer).toBe('');
    expect(fin.error).toMatch(want.error!);
    // A refused reply's calls never run.
    expect(events.some((e) => e.type === 'tool-started')).toBe(false);
  }
  if (want.refusal) expect(steps[0]!.refusal).toBe(want.refusal);
  if (want.usage === 'estimated') expect(steps[0]!.usageSource).toBe('estimated');
  else if (want.usage) {
    expect(steps[0]!.usageSource).toBe('reported');
    expect(steps[0]!.usage).toEqual(want.usage);
  }
  if (want.calls) expect(steps[0]!.toolCalls.map(({ name, arguments: a, cut }) => ({ name, arguments: a, ...(cut ? { cut } : {}) }))).toEqual(want.calls);
  if (want.ranOk !== undefined) {
    const finishedOk = events.filter((e): e is ToolFinishedEvent => e.type === 'tool-finished' && e.step === 1 && e.error === null);
    expect(finishedOk).toHaveLength(want.ranOk);
  }
  if (want.calls?.some((c) => c.cut)) {
    const f = events.find((e): e is ToolFinishedEvent => e.type === 'tool-finished' && e.step === 1);
    expect(f?.error).toMatch(/token limit \(finish reason "length"\).*not run/);
  }
  if (want.roundTrip) expect(second ? want.roundTrip(second) : ['no second request']).toEqual([]);
}

describe('round-two provider shapes through host + worker, in ReAct, Code Mode and ReAct (text)', { timeout: 240_000 }, () => {
  for (const shape of WIRE_SHAPES_2) {
    for (const family of shape.families) {
      it(`${shape.name} in ${family} (${shape.source})`, async () => {
        const { replies, expect: want } = shape.build(family);
        const server = await startReplayServer(replies);
        const dataDir = await tempDir('parallax-wire2-data-');
        const workspace = await tempDir('parallax-wire2-ws-');
        for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(workspace, f), text);
        const host = createHost({ dataDir, caller: 'cli', getApiKey: async () => KEY, onWarning: () => {}, onEvents: () => {} });
        open.push({ host, server });
        const meta = await host['comparison:start']({
          task: TASK, modes: [family], workspaceDir: workspace, settings: { maxRetries: 1, maxSteps: 4 },
          provider: { name: 'custom', baseUrl: server.url, model: 'replay', ...(shape.protocol === 'anthropic' ? { protocol: 'anthropic' as const } : {}) },
        });
        await host.whenDone(meta.id);
        const stored = await host['history:open'](meta.id);
        const reqs = server.chatRequests();
        judge(stored.events, reqs.length, reqs[1], want);
        if (shape.protocol === 'anthropic') expect(reqs[0]!.headers['x-api-key']).toBe(KEY);
      });
    }
  }
});
