/**
 * An MCP call's timeout stops while the call waits on Parallax itself: the run's model answering the server's
 * sampling request, and a person approving that request. Real runs (runEngine) against our SDK test server over
 * stdio with a 3 s call timeout and a scripted model on loopback; the clock's own rules with a fake time. The
 * waits are twice the timeout and the server's own work a small part of it, so a busy machine decides nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import type { AskUser } from '../../../../electron/engine/approval/approval-gate.js';
import { callClock } from '../../../../electron/engine/mcp/call-clock.js';
import { stdioServer } from '../../../helpers/mcp-test-server.js';
import { mcpScriptedModel, type ScriptedModel } from '../../../helpers/mcp-scripted-model.js';

const dirs: string[] = [];
const models: ScriptedModel[] = [];
afterAll(async () => {
  await Promise.all(models.map((m) => m.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function run(
  args: object,
  opts: { samplingDelayMs?: number; approvals?: Record<string, string>; askApproval?: AskUser } = {},
): Promise<StepEvent[]> {
  const model = await mcpScriptedModel([{ name: 't_sample', args }], { samplingDelayMs: opts.samplingDelayMs });
  models.push(model);
  const dir = await mkdtemp(join(tmpdir(), 'parallax-mcp-clock-'));
  dirs.push(dir);
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id: null, text: 'use the tool' },
      mode: 'react',
      provider: { name: 'scripted', baseUrl: model.url, model: 'm', simulated: false },
      apiKeyEnv: null,
      settings: parseSettings({ maxSteps: 3, approvals: opts.approvals ?? {} }),
      workspace: dir,
      mcpServers: [stdioServer('t', { callTimeoutMs: CALL_TIMEOUT_MS })],
    },
    {
      apiKey: null,
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
      ...(opts.askApproval ? { askApproval: opts.askApproval } : {}),
    },
    null,
  );
  return events;
}

const CALL_TIMEOUT_MS = 3000;
/** A wait on the client: twice the call timeout. */
const WAIT_MS = 2 * CALL_TIMEOUT_MS;

const finished = (events: StepEvent[]) =>
  events.find((e): e is Extract<StepEvent, { type: 'tool-finished' }> => e.type === 'tool-finished')!;

describe('an MCP call waiting on the client', () => {
  it("does not time out while the run's model answers its sampling request (6 s, timeout 3 s)", async () => {
    const events = await run({ chars: 5, maxTokens: 5 }, { samplingDelayMs: WAIT_MS });
    const f = finished(events);
    expect(f.error).toBeNull();
    expect(f.output).toContain('sampled reply');
    expect(f.durationMs).toBeGreaterThan(WAIT_MS);
  });

  it('does not time out while a person approves the sampling request (6 s, timeout 3 s)', async () => {
    const ask: AskUser = async (request) => {
      expect(request.tool).toBe('mcp-sampling');
      await new Promise((r) => setTimeout(r, WAIT_MS)); // the person taking their time: the wait under test
      return 'allow';
    };
    const events = await run({ chars: 5, maxTokens: 5 }, { approvals: { 'mcp-sampling': 'ask' }, askApproval: ask });
    expect(events.some((e) => e.type === 'approval-resolved' && e.decision === 'allow')).toBe(true);
    expect(finished(events).error).toBeNull();
    expect(finished(events).output).toContain('sampled reply');
  });

  it("runs again once the wait is over: the server's own 4.5 s after the reply times it out", async () => {
    const events = await run(
      { chars: 5, maxTokens: 5, thenSleepMs: 1.5 * CALL_TIMEOUT_MS },
      { samplingDelayMs: CALL_TIMEOUT_MS / 2 },
    );
    expect(finished(events).error).toMatch(
      /^t_sample \(MCP tool "sample" of server "t"\) failed: timed out after 3000 ms without an answer or a progress report/,
    );
  });
});

describe('the call clock', () => {
  it('times out after the idle time, restarted by progress, paused by waits, capped in all', () => {
    vi.useFakeTimers();
    let t = 0;
    try {
      const tick = (ms: number) => {
        t += ms;
        vi.advanceTimersByTime(ms);
      };
      const c = callClock(1000, 3000, () => t);
      tick(900);
      c.touch();
      tick(900);
      expect(c.signal.aborted).toBe(false);
      const resume = c.pause();
      const resume2 = c.pause();
      tick(10_000);
      resume();
      tick(10_000);
      expect(c.signal.aborted).toBe(false);
      resume2();
      resume2(); // twice is once
      tick(99);
      expect(c.signal.aborted).toBe(false);
      tick(1);
      expect((c.signal.reason as Error).message).toMatch(/^timed out after 1000 ms without an answer/);

      const capped = callClock(1000, 2500, () => t);
      for (let i = 0; i < 4; i++) {
        tick(800);
        capped.touch();
      }
      expect((capped.signal.reason as Error).message).toMatch(/^timed out: the call ran 2500 ms in all/);
      const stopped = callClock(100, 1000, () => t);
      stopped.stop();
      tick(5000);
      expect(stopped.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
