/**
 * The approval flow end to end: real worker processes, the real engine and the simulated model on the
 * time-and-title task, whose runs fetch a page (ReAct directly, Code Mode from inside its program). With
 * fetch_url set to ask, each run pauses alone until the host passes on the user's answer.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonRequest, RunSettingsInput } from '../../../shared/run-spec.js';
import type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  RunFinishedEvent,
  StepEvent,
} from '../../../shared/step-event.js';
import { computeTotals, groupByRun, summarizeRun } from '../../../shared/summary.js';
import { shellSandbox } from '../../../electron/engine/sandbox/shell-sandbox.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import { waitFor } from './session-helpers.js';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function newHost() {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-approvals-'));
  const events: StepEvent[] = [];
  const host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
  });
  hosts.push(host);
  return { host, events };
}

const request = (settings: RunSettingsInput = {}, trials = 1): ComparisonRequest => ({
  task: 'time-and-title',
  modes: ['react', 'code'],
  trials,
  provider: { name: 'simulated', baseUrl: null, model: 'sim' },
  settings: { approvals: { fetch_url: 'ask' }, ...settings },
});

const requested = (events: StepEvent[], runId: string) =>
  events.filter((e): e is ApprovalRequestedEvent => e.type === 'approval-requested' && e.runId === runId);
const resolved = (events: StepEvent[], runId: string) =>
  events.filter((e): e is ApprovalResolvedEvent => e.type === 'approval-resolved' && e.runId === runId);
const finished = (events: StepEvent[], runId: string) =>
  events.find((e): e is RunFinishedEvent => e.type === 'run-finished' && e.runId === runId);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Real worker processes on a shared machine: generous limits, the waits themselves are asserted.
describe('approvals: one run waits, the others go on', () => {
  it('records the policy; Allow runs the call, Deny returns a tool error and the run goes on; waiting is not the run’s time', async () => {
    const { host, events } = await newHost();
    // A program's own time limit is 20 s here: the user takes 21 s, which must not count. (The limit leaves the
    // program's own work room on a busy machine, where loading the page converter alone takes seconds; the wait
    // is the part under test.)
    const meta = await host['comparison:start']({ ...request({ codeTimeoutMs: 20_000 }), modes: ['react', 'code'] });
    const [react, code] = meta.runs;
    // What the user chose, and this machine's defaults for the rest (run_shell: allow only inside the shell sandbox).
    expect(meta.settings.approvals).toEqual({
      run_shell: shellSandbox().kind === 'bubblewrap' ? 'allow' : 'ask',
      write_file: 'allow',
      fetch_url: 'ask',
    });

    await waitFor(
      () => requested(events, react.runId).length === 1 && requested(events, code.runId).length === 1,
      120_000,
    );
    const [askReact] = requested(events, react.runId);
    const [askCode] = requested(events, code.runId);
    expect(askReact).toMatchObject({
      tool: 'fetch_url',
      inProgram: false,
      args: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) },
    });
    expect(askCode).toMatchObject({ tool: 'fetch_url', inProgram: true });
    expect(events.find((e) => e.type === 'run-started' && e.runId === react.runId)).toMatchObject({
      settings: { approvals: meta.settings.approvals },
    });

    // Both wait; nothing more happens in either run while they do. The user takes 21 s (longer than the program's limit).
    const seqBefore = events.filter((e) => e.runId === react.runId).length;
    await sleep(21_000);
    expect(events.filter((e) => e.runId === react.runId).length).toBe(seqBefore);
    expect(finished(events, react.runId)).toBeUndefined();

    await host['approval:answer'](code.runId, askCode.approvalId, 'allow');
    await waitFor(() => finished(events, code.runId) !== undefined, 120_000);
    await expect(host['approval:answer'](code.runId, askCode.approvalId, 'allow')).rejects.toThrow(
      /not waiting for approval .* already answered, or the run ended/,
    );
    await sleep(700);
    await host['approval:answer'](react.runId, askReact.approvalId, 'deny');
    await host.whenDone(meta.id);

    const byRun = groupByRun(events);
    // Code Mode: allowed, answered right, its program not stopped by its 20 s limit although it waited over 21 s.
    const codeRun = summarizeRun(byRun.get(code.runId)!);
    expect(codeRun.status, codeRun.error ?? '').toBe('answered');
    expect(codeRun.validation?.ok, codeRun.validation?.detail).toBe(true);
    const [codeResolved] = resolved(events, code.runId);
    expect(codeResolved).toMatchObject({ decision: 'allow', approvalId: askCode.approvalId });
    expect(codeResolved.waitedMs).toBeGreaterThan(20_900);
    const program = byRun
      .get(code.runId)!
      .find((e) => e.type === 'code-run' && e.toolCalls.some((c) => c.name === 'fetch_url'));
    expect(program).toMatchObject({ limitHit: null, error: null });
    expect((program as { durationMs: number }).durationMs).toBeLessThan(codeResolved.waitedMs);

    // The wait is kept out of the run's own time and reported apart.
    for (const r of [react, code]) {
      const evs = byRun.get(r.runId)!;
      const totals = computeTotals(evs);
      const waited = resolved(events, r.runId).reduce((a, e) => a + e.waitedMs, 0);
      const lastT = Math.max(...evs.filter((e) => e.type !== 'run-finished').map((e) => e.t));
      expect(totals.approvalWaitMs).toBeCloseTo(waited, 0);
      expect(totals.wallMs).toBeCloseTo(lastT - waited, 0);
      expect(finished(events, r.runId)!.totals).toEqual(totals);
    }

    // ReAct: denied → the model got a clear tool error, the loop went on to an answer without the title.
    const reactEvents = byRun.get(react.runId)!;
    expect(resolved(events, react.runId)).toEqual([
      expect.objectContaining({ decision: 'deny', approvalId: askReact.approvalId }),
    ]);
    const denied = reactEvents.find((e) => e.type === 'tool-finished' && e.name === 'fetch_url');
    expect(denied).toMatchObject({ error: expect.stringMatching(/^The user denied fetch_url; it was not run\./) });
    // The call's own time leaves out the wait for the user's answer.
    expect((denied as { durationMs: number }).durationMs).toBeLessThan(resolved(events, react.runId)[0].waitedMs);
    const reactRun = summarizeRun(reactEvents);
    expect(reactRun.status).toBe('answered');
    expect(reactRun.totals.steps).toBeGreaterThanOrEqual(2);
  });

  it('"Allow for this comparison" answers the other waiting run and every later trial at once', async () => {
    const { host, events } = await newHost();
    const meta = await host['comparison:start'](request({}, 2));
    const round1 = meta.runs.filter((r) => r.trial === 1);
    await waitFor(() => round1.every((r) => requested(events, r.runId).length === 1), 120_000);
    const [first] = requested(events, round1[0].runId);
    await host['approval:answer'](round1[0].runId, first.approvalId, 'allow-comparison');
    await host.whenDone(meta.id);
    for (const r of meta.runs) {
      const s = summarizeRun(groupByRun(events).get(r.runId)!);
      expect(s.status, `${r.runId}: ${s.error}`).toBe('answered');
      expect(s.validation?.ok, s.validation?.detail).toBe(true);
      const answers = resolved(events, r.runId).map((e) => e.decision);
      // Every run asked at most once and was answered for the comparison; no run of round 2 waited on the user:
      // the one answer given above is the only one, so the host answered the rest (unanswered, a run would wait
      // out the approval timeout and end cancelled).
      expect(answers).toEqual(['allow-comparison']);
    }
  });

  it('a round waiting for a person lends its slot to other comparisons only: its own next trial waits for it', async () => {
    const { host, events } = await newHost();
    const meta = await host['comparison:start'](request({}, 2));
    const round1 = meta.runs.filter((r) => r.trial === 1);
    const round2 = meta.runs.filter((r) => r.trial === 2);
    await waitFor(() => round1.every((r) => requested(events, r.runId).length === 1), 120_000);
    for (const r of round1) await host['approval:answer'](r.runId, requested(events, r.runId)[0].approvalId, 'allow');
    await waitFor(() => round2.every((r) => requested(events, r.runId).length === 1), 120_000);
    // Trial 2 began only after trial 1 had ended, and trial 1 ended only once the person answered: while they had
    // not, the next trial did not start.
    const lastFinish1 = Math.max(...round1.map((r) => events.indexOf(finished(events, r.runId)!)));
    const firstStart2 = Math.min(
      ...round2.map((r) => events.findIndex((e) => e.type === 'run-started' && e.runId === r.runId)),
    );
    expect(firstStart2).toBeGreaterThan(lastFinish1);
    for (const r of round2) await host['approval:answer'](r.runId, requested(events, r.runId)[0].approvalId, 'deny');
    await host.whenDone(meta.id);
  });

  it('cancel while waiting ends the run as cancelled, with the wait recorded as cancelled', async () => {
    const { host, events } = await newHost();
    const meta = await host['comparison:start'](request());
    await waitFor(() => meta.runs.every((r) => requested(events, r.runId).length === 1), 120_000);
    await host['run:cancel'](meta.runs[1].runId); // Code Mode, waiting inside its program
    await waitFor(() => finished(events, meta.runs[1].runId) !== undefined, 60_000);
    expect(finished(events, meta.runs[1].runId)).toMatchObject({ status: 'cancelled' });
    expect(resolved(events, meta.runs[1].runId).map((e) => e.decision)).toEqual(['cancelled']);
    // The other run still waits, untouched, until it is answered.
    expect(finished(events, meta.runs[0].runId)).toBeUndefined();
    await host['approval:answer'](meta.runs[0].runId, requested(events, meta.runs[0].runId)[0].approvalId, 'allow');
    await host.whenDone(meta.id);
    expect(finished(events, meta.runs[0].runId)).toMatchObject({ status: 'answered' });
    await expect(host['approval:answer'](meta.runs[0].runId, 'x', 'maybe' as never)).rejects.toThrow(
      /"maybe" is not an answer/,
    );
  });

  it('deny in the policy refuses without asking; allow runs without asking', async () => {
    const { host, events } = await newHost();
    const meta = await host['comparison:start']({ ...request({ approvals: { fetch_url: 'deny' } }), modes: ['react'] });
    await host.whenDone(meta.id);
    const evs = groupByRun(events).get(meta.runs[0].runId)!;
    expect(evs.some((e) => e.type === 'approval-requested')).toBe(false);
    expect(evs.find((e) => e.type === 'tool-finished' && e.name === 'fetch_url')).toMatchObject({
      error: expect.stringMatching(/fetch_url is not allowed in this run \(the approval policy says deny\)/),
    });
    const allowed = await host['comparison:start']({
      ...request({ approvals: { fetch_url: 'allow' } }),
      modes: ['code'],
    });
    await host.whenDone(allowed.id);
    const s = summarizeRun(groupByRun(events).get(allowed.runs[0].runId)!);
    expect(s.validation?.ok, s.validation?.detail).toBe(true);
    expect(s.totals.approvalWaitMs).toBe(0);
  });
});
