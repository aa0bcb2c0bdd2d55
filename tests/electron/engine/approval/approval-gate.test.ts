import { describe, expect, it } from 'vitest';
import type { StepEventInput } from '../../../../shared/step-event.js';
import {
  ApprovalCancelledError,
  ApprovalGate,
  type AskUser,
} from '../../../../electron/engine/approval/approval-gate.js';

const place = { step: 2, callId: 'call_1', inProgram: false };
const policy = { run_shell: 'ask', write_file: 'deny', fetch_url: 'allow' } as const;

function gate(ask: AskUser | null) {
  const events: StepEventInput[] = [];
  return { events, gate: new ApprovalGate(policy, (e) => events.push(e), ask) };
}

describe('ApprovalGate', () => {
  it('lets other tools and allowed ones through without a word; refuses denied ones with a message for the model', async () => {
    const { gate: g, events } = gate(async () => 'allow');
    const signal = new AbortController().signal;
    expect(await g.check('read_file', { path: 'a' }, place, signal)).toEqual({ ok: true });
    expect(await g.check('fetch_url', { url: 'x' }, place, signal)).toEqual({ ok: true });
    expect(await g.check('write_file', { path: 'a', content: 'b' }, place, signal)).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^write_file is not allowed in this run \(the approval policy says deny\), so it was not run\./,
      ),
    });
    expect(events).toEqual([]);
  });

  it('asks, records request and answer with the time waited, and remembers "allow for this comparison"', async () => {
    let asked = 0;
    const { gate: g, events } = gate(async () => {
      asked++;
      await new Promise((r) => setTimeout(r, 60));
      return 'allow-comparison';
    });
    const signal = new AbortController().signal;
    expect(await g.check('run_shell', { command: 'ls' }, place, signal)).toEqual({ ok: true });
    expect(await g.check('run_shell', { command: 'ls -l' }, place, signal)).toEqual({ ok: true });
    expect(asked).toBe(1);
    expect(events).toEqual([
      {
        type: 'approval-requested',
        step: 2,
        callId: 'call_1',
        approvalId: 'call_1-approval-1',
        tool: 'run_shell',
        args: { command: 'ls' },
        inProgram: false,
      },
      {
        type: 'approval-resolved',
        step: 2,
        callId: 'call_1',
        approvalId: 'call_1-approval-1',
        tool: 'run_shell',
        decision: 'allow-comparison',
        waitedMs: expect.any(Number),
      },
    ]);
    expect((events[1] as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(55);
  });

  it('a denial is a clear tool error; with nobody to ask the call is refused, saying why', async () => {
    const denied = gate(async () => 'deny');
    expect(await denied.gate.check('run_shell', { command: 'rm -rf /' }, place, new AbortController().signal)).toEqual({
      ok: false,
      message: expect.stringMatching(/^The user denied run_shell; it was not run\. Do not ask for the same call again/),
    });
    const alone = gate(null);
    expect(await alone.gate.check('run_shell', { command: 'ls' }, place, new AbortController().signal)).toEqual({
      ok: false,
      message: expect.stringMatching(/needs the user's approval and this run has no way to ask/),
    });
    expect(alone.events).toEqual([]);
  });

  it('cancel while waiting ends the wait as cancelled, restarts the paused clock, and throws', async () => {
    let asking = (): void => {};
    const asked = new Promise<void>((resolve) => (asking = resolve));
    const { gate: g, events } = gate(() => (asking(), new Promise(() => {})));
    const controller = new AbortController();
    const clock: string[] = [];
    const pending = g.check(
      'run_shell',
      { command: 'sleep 100' },
      { ...place, inProgram: true },
      controller.signal,
      () => {
        clock.push('paused');
        return () => clock.push('resumed');
      },
    );
    await asked; // the user is being asked: the wait has begun
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ApprovalCancelledError);
    expect(clock).toEqual(['paused', 'resumed']);
    expect(events.map((e) => (e.type === 'approval-resolved' ? e.decision : e.type))).toEqual([
      'approval-requested',
      'cancelled',
    ]);
  });
});
