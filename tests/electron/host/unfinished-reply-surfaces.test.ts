/**
 * A final reply cut short or empty never reads "answered", on any surface the host makes: one comparison through
 * the real worker path (tests/helpers/unfinished-replies.ts: ReAct answers; Code Mode's final reply is cut at the
 * token limit in the middle of a right-looking answer; ReAct (text)'s is empty, finish "stop"). The two failing runs
 * cost less and spend fewer tokens, so a surface that took them for answers would name one of them the winner. The
 * stored statuses, the verdicts, the result statement, and the HTML, Markdown and JSON reports are checked; the CLI's
 * `compare` and `suite run` are in tests/electron/cli/unfinished-reply-cli.test.ts, the app in
 * tests/e2e/unfinished-replies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resultStatement } from '../../../shared/result-statement.js';
import { runOutcome } from '../../../shared/run-outcome.js';
import { groupByRun, summarizeComparison, summarizeRun } from '../../../shared/summary.js';
import { wireHost } from '../../helpers/wire-host.js';
import { CUT, unfinishedScript } from '../../helpers/unfinished-replies.js';

const { compare } = wireHost('sk-unfinished-7c6b5a4d');

describe('a final reply cut short or empty, on every host surface', () => {
  it('is stored as truncated or empty, wins no verdict, is left out of the result with its reason, and every report says so', async () => {
    const { events, meta, host, id } = await compare(unfinishedScript, { modes: ['react', 'code', 'react-text'], settings: { maxSteps: 4, maxRetries: 0 } });
    const byRun = groupByRun(events);
    const runs = meta.runs.map((r) => summarizeRun(byRun.get(r.runId) ?? []));
    const [react, code, text] = runs;
    expect(runs.map((r) => [r.mode, r.status, r.answer])).toEqual([['react', 'answered', expect.stringContaining('alpha')], ['code', 'truncated', ''], ['react-text', 'empty', '']]);
    expect(code!.error).toMatch(/token limit before it was finished \(finish_reason "length"\)/);
    expect(text!.error).toMatch(/final reply was empty \(finish_reason "stop"\)/);
    // The fragment stays on its step, for the record, never as the run's answer.
    expect(byRun.get(code!.runId)!.some((e) => e.type === 'model-response' && e.step === 2 && e.text === CUT)).toBe(true);

    // The failing runs are the cheaper ones; the verdicts still go to the run that answered.
    expect(code!.totals.total).toBeLessThan(react!.totals.total);
    expect(text!.cost.usd!).toBeLessThan(react!.cost.usd!);
    const cmp = summarizeComparison(runs);
    expect(cmp.fewestTokens.runId).toBe(react!.runId);
    expect(cmp.cheapest.runId).toBe(react!.runId);
    expect(runs.map((r) => runOutcome(r))).toMatchObject([{ passed: true, word: 'Answered' }, { passed: false, tone: 'fail', word: 'Cut short' }, { passed: false, tone: 'fail', word: 'Empty reply' }]);
    const statement = resultStatement({ runs: runs.map((summary) => ({ trial: 1, summary })), simulated: false });
    expect(statement.winner?.key).toBe('react');
    expect(statement.leftOut.join('\n')).toMatch(/Code Mode .* left out: its final reply was cut short at the token limit/);
    expect(statement.leftOut.join('\n')).toMatch(/ReAct \(text\) .* left out: its final reply was empty/);

    const report = async (format: 'html' | 'md' | 'json') => {
      const r = await host['report:export'](id, format);
      if (r.status !== 'download') throw new Error(`no ${format} report: ${r.status}`);
      return r.content;
    };
    const html = await report('html');
    // Each failing run's result block: its status in the failure colour's class, its reason as a failure's note, no answer.
    for (const [status, reason] of [['truncated', /token limit before it was finished/], ['empty', /final reply was empty/]] as const) {
      const block = html.slice(html.indexOf(`Result: <span class="status-${status}">`));
      expect(block.length, `${status} result block`).toBeLessThan(html.length);
      const end = block.indexOf('</div>');
      expect(block.slice(0, end)).toMatch(new RegExp(`<p class="notice bad">[^<]*${reason.source}`));
      expect(block.slice(0, end)).toContain('No answer.');
    }
    expect(html).toMatch(/\.status-truncated, \.status-empty[^{]*\{ color: var\(--bad\); \}/);
    expect(html).not.toMatch(/Result: <span class="status-answered">answered<\/span>[\s\S]{0,400}a\.txt holds &quot;alpha&quot;; b\.txt h<\/p>/);

    const md = await report('md');
    expect(md).toMatch(/truncated/);
    expect(md).toMatch(/empty/);
    expect(md).not.toMatch(/Code Mode used the fewest tokens|ReAct \(text\) used the fewest tokens/);

    const json = JSON.parse(await report('json')) as { summary: { runs: { runId: string; status: string; answer: string }[]; result: { winner: { key: string } | null }; fewestTokens: { runId: string } } };
    expect(json.summary.runs.map((r) => [r.status, r.answer])).toEqual([['answered', expect.stringContaining('alpha')], ['truncated', ''], ['empty', '']]);
    expect(json.summary.result.winner?.key).toBe('react');
    expect(json.summary.fewestTokens.runId).toBe(react!.runId);
  });
});
