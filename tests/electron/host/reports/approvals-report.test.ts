/**
 * Approvals in the reports, from a real comparison (real workers, the simulated model, time-and-title with
 * fetch_url set to ask): Code Mode allowed inside its program, ReAct denied. Each report shows the policy and
 * every approval in the timeline, with the wait kept apart from the run's time.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import type { ApprovalRequestedEvent, StepEvent } from '../../../../shared/step-event.js';
import { computeTotals, groupByRun } from '../../../../shared/summary.js';
import { createHost } from '../../../../electron/host/host.js';
import { buildReport, loadReportJson } from '../../../../electron/host/reports/index.js';
import { formatMs } from '../../../../electron/host/reports/report-text.js';
import { waitFor } from '../session-helpers.js';

let stored: StoredComparison;

beforeAll(async () => {
  const events: StepEvent[] = [];
  const host = createHost({
    dataDir: await mkdtemp(join(tmpdir(), 'parallax-approval-report-')),
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
  });
  try {
    const meta = await host['comparison:start']({
      task: 'time-and-title',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      settings: { approvals: { fetch_url: 'ask' } },
    });
    const asked = (runId: string) =>
      events.find((e): e is ApprovalRequestedEvent => e.type === 'approval-requested' && e.runId === runId);
    await waitFor(() => meta.runs.every((r) => asked(r.runId)), 120_000);
    await host['approval:answer'](meta.runs[1].runId, asked(meta.runs[1].runId)!.approvalId, 'allow');
    await host['approval:answer'](meta.runs[0].runId, asked(meta.runs[0].runId)!.approvalId, 'deny');
    await host.whenDone(meta.id);
    stored = await host['history:open'](meta.id);
  } finally {
    await host.close();
  }
});

describe('approvals in the reports', () => {
  it('HTML: the policy in the settings, each approval on its call in the timeline, and the wait apart', async () => {
    const { content } = await buildReport(stored, 'html');
    expect(content).toMatch(
      /Tool approvals<\/(th|dt|td)>\s*<(td|dd)[^>]*>run_shell (allow|ask), write_file allow, fetch_url ask/,
    );
    expect(content).toMatch(
      /Approval:<\/span> <code>fetch_url<\/code>: denied by the user after [\d.]+ (ms|s) \(kept out of the run&#39;s time\)/,
    );
    expect(content).toMatch(
      /Approval:<\/span> <code>fetch_url<\/code> \(inside the program\): allowed by the user after [\d.]+ (ms|s) \(kept out of the run&#39;s time\) <code class="args">\[?\{?&quot;url&quot;/,
    );
    const byRun = groupByRun(stored.events);
    for (const r of stored.meta.runs) {
      const t = computeTotals(byRun.get(r.runId)!);
      expect(content).toContain(
        `Waited ${formatMs(t.approvalWaitMs)} for the user's approval; not counted in its wall time of ${formatMs(t.wallMs)}.`,
      );
    }
  });

  it('Markdown: an Approvals list under each run’s steps', async () => {
    const { content } = await buildReport(stored, 'md');
    expect(content).toMatch(
      /## ReAct — steps \(simulated\)[\s\S]*\*\*Approvals\*\*\n\n- Step 1: `fetch_url`: denied by the user after/,
    );
    expect(content).toMatch(
      /## Code Mode — steps \(simulated\)[\s\S]*\*\*Approvals\*\*\n\n- Step 1: `fetch_url` \(inside the program\): allowed by the user after/,
    );
    expect(content).toMatch(/tool approvals run_shell (allow|ask), write_file allow, fetch_url ask/);
  });

  it('JSON: the approval events round-trip through the loader, checked by the one schema', async () => {
    const loaded = loadReportJson((await buildReport(stored, 'json')).content);
    expect(loaded.events.filter((e) => e.type.startsWith('approval-'))).toEqual(
      stored.events.filter((e) => e.type.startsWith('approval-')),
    );
    expect(
      loaded.events
        .filter((e) => e.type === 'approval-resolved')
        .map((e) => (e as { decision: string }).decision)
        .sort(),
    ).toEqual(['allow', 'deny']);
  });
});
