/**
 * A final reply cut short, empty, refused or filtered never reads "answered", on any surface the host makes: one
 * comparison through the real worker path (tests/helpers/unfinished-replies.ts: ReAct answers; Code Mode's final
 * reply is cut at the token limit in the middle of a right-looking answer; ReAct (text)'s is empty, finish "stop"),
 * and the same with both final replies filtered after most of an answer (Azure content_filter, Gemini RECITATION). The two failing runs
 * cost less and spend fewer tokens, so a surface that took them for answers would name one of them the winner. The
 * stored statuses, the verdicts, the result statement, the HTML, Markdown and JSON reports, and the diff against a
 * baseline where every run answered (both columns fail now) are checked; the CLI's
 * `compare` and `suite run` are in tests/electron/cli/unfinished-reply-cli.test.ts, the app in
 * tests/e2e/unfinished-replies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resultStatement } from '../../../shared/result-statement.js';
import { runOutcome } from '../../../shared/run-outcome.js';
import { groupByRun, summarizeComparison, summarizeRun } from '../../../shared/summary.js';
import { wireHost } from '../../helpers/wire-host.js';
import {
  answeredScript,
  CUT,
  FILTERED_TEXT,
  filteredScript,
  unfinishedScript,
} from '../../helpers/unfinished-replies.js';
import { diffStored } from '../../../electron/host/reports/diff-report.js';

const { compare } = wireHost('sk-unfinished-7c6b5a4d');

const CASES = [
  {
    name: 'cut short or empty',
    script: unfinishedScript,
    statuses: ['truncated', 'empty'],
    words: ['Cut short', 'Empty reply'],
    texts: [CUT, ''],
    errors: [
      /token limit before it was finished \(finish_reason "length"\)/,
      /final reply was empty \(finish_reason "stop"\)/,
    ],
    leftOut: [
      /Code Mode .* left out: its final reply was cut short at the token limit/,
      /ReAct \(text\) .* left out: its final reply was empty/,
    ],
    notes: [/token limit before it was finished/, /final reply was empty/],
  },
  {
    name: 'refused or filtered',
    script: filteredScript,
    statuses: ['refused', 'refused'],
    words: ['Refused', 'Refused'],
    texts: [CUT, FILTERED_TEXT],
    errors: [
      /finish_reason "content_filter" \(its content filter\).*violence \(medium\)/,
      /finish_reason "RECITATION" \(its content filter\)/,
    ],
    leftOut: [
      /Code Mode .* left out: the provider refused the reply or filtered it/,
      /ReAct \(text\) .* left out: the provider refused the reply or filtered it/,
    ],
    notes: [/finish_reason &quot;content_filter&quot;/, /finish_reason &quot;RECITATION&quot;/],
  },
] as const;

describe.each(CASES)(
  'a final reply $name, on every host surface',
  ({ script, statuses, words, texts, errors, leftOut, notes }) => {
    it('is stored as no answer, wins no verdict, is left out of the result with its reason, and every report says so', async () => {
      const { events, meta, host, id } = await compare(script, {
        modes: ['react', 'code', 'react-text'],
        settings: { maxSteps: 4, maxRetries: 0 },
      });
      const byRun = groupByRun(events);
      const runs = meta.runs.map((r) => summarizeRun(byRun.get(r.runId) ?? []));
      const [react, code, text] = runs;
      expect(runs.map((r) => [r.mode, r.status, r.answer])).toEqual([
        ['react', 'answered', expect.stringContaining('alpha')],
        ['code', statuses[0], ''],
        ['react-text', statuses[1], ''],
      ]);
      expect(code!.error).toMatch(errors[0]);
      expect(text!.error).toMatch(errors[1]);
      // The fragment stays on its step, for the record, never as the run's answer.
      expect(
        byRun.get(code!.runId)!.some((e) => e.type === 'model-response' && e.step === 2 && e.text === texts[0]),
      ).toBe(true);
      expect(
        byRun.get(text!.runId)!.some((e) => e.type === 'model-response' && e.step === 2 && e.text === texts[1]),
      ).toBe(true);

      // The failing runs are the cheaper ones; the verdicts still go to the run that answered.
      expect(code!.totals.total).toBeLessThan(react!.totals.total);
      expect(text!.cost.usd!).toBeLessThan(react!.cost.usd!);
      const cmp = summarizeComparison(runs);
      expect(cmp.fewestTokens.runId).toBe(react!.runId);
      expect(cmp.cheapest.runId).toBe(react!.runId);
      expect(runs.map((r) => runOutcome(r))).toMatchObject([
        { passed: true, word: 'Answered' },
        { passed: false, tone: 'fail', word: words[0] },
        { passed: false, tone: 'fail', word: words[1] },
      ]);
      const statement = resultStatement({ runs: runs.map((summary) => ({ trial: 1, summary })), simulated: false });
      expect(statement.winner?.key).toBe('react');
      expect(statement.leftOut.join('\n')).toMatch(leftOut[0]);
      expect(statement.leftOut.join('\n')).toMatch(leftOut[1]);

      const report = async (format: 'html' | 'md' | 'json') => {
        const r = await host['report:export'](id, format);
        if (r.status !== 'download') throw new Error(`no ${format} report: ${r.status}`);
        return r.content;
      };
      const html = await report('html');
      // Each failing run's result block, in run order: its status in the failure colour's class, its reason as a failure's note, no answer.
      const blocks = html
        .split('Result: <span class="status-')
        .slice(1)
        .map((b) => b.slice(0, b.indexOf('</div>')));
      expect(blocks.map((b) => b.slice(0, b.indexOf('"')))).toEqual(['answered', ...statuses]);
      for (const [i, reason] of notes.entries()) {
        expect(blocks[i + 1]).toMatch(new RegExp(`<p class="notice bad">[^<]*${reason.source}`));
        expect(blocks[i + 1]).toContain('No answer.');
      }
      for (const st of new Set(statuses))
        expect(html).toMatch(new RegExp(`\\.status-${st}[,\\s][^{]*\\{ color: var\\(--bad\\); \\}`));
      expect(html).not.toMatch(
        /Result: <span class="status-answered">answered<\/span>[\s\S]{0,400}a\.txt holds &quot;alpha&quot;; b\.txt h<\/p>/,
      );

      const md = await report('md');
      const statusRow = md.split('\n').find((l) => l.startsWith('| Status'));
      expect(
        statusRow
          ?.split('|')
          .slice(2, 5)
          .map((c) => c.trim().toLowerCase()),
      ).toEqual(['answered', ...statuses]);
      expect(md).toMatch(/Not ranked \(did not answer\): Code Mode \([^)]*\), ReAct \(text\)/);
      expect(md).not.toMatch(/Code Mode used the fewest tokens|ReAct \(text\) used the fewest tokens/);

      const json = JSON.parse(await report('json')) as {
        summary: {
          runs: { runId: string; status: string; answer: string }[];
          result: { winner: { key: string } | null };
          fewestTokens: { runId: string };
        };
      };
      expect(json.summary.runs.map((r) => [r.status, r.answer])).toEqual([
        ['answered', expect.stringContaining('alpha')],
        [statuses[0], ''],
        [statuses[1], ''],
      ]);
      expect(json.summary.result.winner?.key).toBe('react');
      expect(json.summary.fewestTokens.runId).toBe(react!.runId);

      // Against a baseline where every column answered, both columns fail now, in their runs' words, and spent-less is no improvement.
      const base = await compare(answeredScript, {
        modes: ['react', 'code', 'react-text'],
        settings: { maxSteps: 4, maxRetries: 0 },
      });
      const diff = diffStored(await base.host['history:open'](base.id), await host['history:open'](id));
      const col = (label: string) => diff.columns.find((c) => c.label === label)!;
      expect(col('ReAct').comparison).toEqual({ runs: 1, passed: 1, failures: [] });
      for (const [i, label] of (['Code Mode', 'ReAct (text)'] as const).entries()) {
        const c = col(label);
        expect(c.baseline).toEqual({ runs: 1, passed: 1, failures: [] });
        expect(c.comparison).toMatchObject({ runs: 1, passed: 0 });
        expect(c.comparison!.failures.join(' ')).toMatch(leftOut[i]!.source.replace(/^.*left out: /, ''));
        expect(c.figures.find((f) => f.figure === 'passRate')!.trend).toBe('now-fails');
        expect(c.figures.some((f) => f.trend === 'improved')).toBe(false);
      }
      expect(diff.headline.join(' ')).toMatch(
        /Code Mode regressed: it fails now\..*ReAct \(text\) regressed: it fails now\./,
      );
    });
  },
);
