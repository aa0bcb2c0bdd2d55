/**
 * The four formats built from a real stored log-stats comparison (a `parallax compare` child process with
 * the simulated model). Every expected number is recomputed here from the stored events with the report math.
 */
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import type { RunTotals, StepEvent } from '../../../../shared/step-event.js';
import {
  aggregateByColumn,
  NO_DIFF_NOTE,
  computePerStep,
  computeTotals,
  groupByRun,
  summarizeComparison,
  summarizeRun,
} from '../../../../shared/summary.js';
import { resultStatement } from '../../../../shared/result-statement.js';
import {
  buildReport,
  loadReportJson,
  ReportFileError,
  summarizeStored,
} from '../../../../electron/host/reports/index.js';
import { CSV_COLUMNS } from '../../../../electron/host/reports/csv-report.js';
import { liveComparison, type LiveComparison } from './live-comparison.js';

let live: LiveComparison;
let stored: StoredComparison;
let byRun: Map<string, StepEvent[]>;

beforeAll(async () => {
  live = await liveComparison(['--task', 'log-stats']);
  stored = live.stored;
  byRun = groupByRun(stored.events);
});

/** Replace one run's final answer: a real comparison carrying a hostile or awkward answer. */
function withAnswer(s: StoredComparison, runIndex: number, answer: string): StoredComparison {
  const runId = s.meta.runs[runIndex].runId;
  return { ...s, events: s.events.map((e) => (e.runId === runId && e.type === 'run-finished' ? { ...e, answer } : e)) };
}

describe('the stored comparison the reports are made from', () => {
  it('is a real two-mode log-stats run that answered in both modes', () => {
    expect(stored.meta.task.id).toBe('log-stats');
    expect(stored.meta.runs.map((r) => r.mode)).toEqual(['react', 'code']);
    for (const r of stored.meta.runs) {
      const s = summarizeRun(byRun.get(r.runId) ?? []);
      expect(s.status, `${r.mode}: ${s.error ?? ''}`).toBe('answered');
      expect(s.totals.steps).toBeGreaterThan(0);
      expect(s.totals.prompt).toBeGreaterThan(0);
    }
  });
});

describe('buildReport', () => {
  it('is deterministic: the same stored events give the same bytes in every format', async () => {
    for (const f of ['html', 'md', 'csv', 'json'] as const) {
      expect((await buildReport(stored, f)).content).toBe((await buildReport(structuredClone(stored), f)).content);
    }
  });

  it('stamps a generation time only when one is passed in', async () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect((await buildReport(stored, 'html')).content).not.toContain('Report generated');
    expect((await buildReport(stored, 'html', { generatedAt: at })).content).toContain('2026-01-02 03:04:05 UTC');
    expect((await buildReport(stored, 'md', { generatedAt: at })).content).toContain('2026-01-02 03:04:05 UTC');
  });

  it('is the same for one trial whether the meta names trial 1 or predates trials, with no trial section', async () => {
    const older: StoredComparison = {
      ...stored,
      meta: { ...stored.meta, runs: stored.meta.runs.map(({ runId, mode }) => ({ runId, mode })) },
    };
    const marked: StoredComparison = {
      ...stored,
      meta: { ...stored.meta, runs: stored.meta.runs.map((r) => ({ ...r, trial: 1 })) },
    };
    for (const f of ['html', 'md', 'csv'] as const)
      expect((await buildReport(older, f)).content, f).toBe((await buildReport(marked, f)).content);
    for (const f of ['html', 'md'] as const) {
      const text = (await buildReport(marked, f)).content;
      expect(text).not.toContain('Average over');
      expect(text).not.toContain(' · trial');
    }
  });

  it('names files by task and comparison id with the right MIME types', async () => {
    const expected = {
      html: 'text/html; charset=utf-8',
      md: 'text/markdown; charset=utf-8',
      csv: 'text/csv; charset=utf-8',
      json: 'application/json',
    };
    for (const [f, mime] of Object.entries(expected)) {
      const r = await buildReport(stored, f as keyof typeof expected);
      expect(r.mimeType).toBe(mime);
      expect(r.fileName).toBe(`parallax-log-stats-${live.id}.${f}`);
    }
  });
});

describe('CSV', () => {
  it("has one row per step per run whose usage sums to each run's totals", async () => {
    const parsed = Papa.parse<Record<string, string>>((await buildReport(stored, 'csv')).content, {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    // Pinned here, not read from CSV_COLUMNS: a spreadsheet that reads these files depends on the order.
    expect(parsed.meta.fields).toEqual([
      'comparison_id',
      'run_id',
      'mode',
      'trial',
      'status',
      'step',
      'prompt',
      'completion',
      'cached',
      'reasoning',
      'total',
      'usage_missing',
      'latency_ms',
      'attempts',
      'tool_calls',
      'provider',
      'model',
      'simulated',
      'cache_write',
      'usage_source',
      'cost_usd',
      'cost_source',
      'price_date',
      'row',
      'figure',
      'n',
      'mean',
      'sd',
      'ci95_low',
      'ci95_high',
      'baseline',
      'diff',
      'percent',
      'percent_ci95_low',
      'percent_ci95_high',
      'p',
      'test',
      'sentence',
    ]);
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    // One trial: step rows only (statistics rows come with several trials).
    expect(new Set(parsed.data.map((r) => r.row))).toEqual(new Set(['step']));
    for (const [runId, events] of byRun) {
      const rows = parsed.data.filter((r) => r.run_id === runId);
      const totals = computeTotals(events);
      expect(rows).toHaveLength(totals.steps);
      const sum = (k: string) => rows.reduce((a, r) => a + Number(r[k]), 0);
      expect(sum('prompt')).toBe(totals.prompt);
      expect(sum('completion')).toBe(totals.completion);
      expect(sum('cached')).toBe(totals.cached);
      expect(sum('reasoning')).toBe(totals.reasoning);
      expect(sum('total')).toBe(totals.total);
      expect(sum('tool_calls')).toBe(totals.toolCalls);
      const per = computePerStep(events);
      expect(rows.map((r) => Number(r.step))).toEqual(per.map((s) => s.step));
      expect(rows.map((r) => Number(r.latency_ms))).toEqual(per.map((s) => s.latencyMs));
      expect(rows.map((r) => Number(r.attempts))).toEqual(per.map((s) => s.attempts));
      // One trial: every row is trial 1, whether the meta says so (new comparisons) or not (older ones).
      const trial = String(stored.meta.runs.find((m) => m.runId === runId)?.trial ?? 1);
      expect(trial).toBe('1');
      for (const r of rows) {
        expect(r.trial).toBe(trial);
        expect(r.comparison_id).toBe(live.id);
        expect(r.simulated).toBe('true');
        // The simulated model bills nobody: no cost, and the reason instead of $0.
        expect([r.usage_source, r.cost_usd, r.cost_source, r.price_date]).toEqual([
          'reported',
          '',
          'simulated: no price',
          '',
        ]);
      }
    }
  });
});

describe('JSON', () => {
  it('round-trips: loading it back gives the stored meta and events, and the same summary recomputed', async () => {
    const text = (await buildReport(stored, 'json')).content;
    const doc = JSON.parse(text) as { schema: string; version: number; summary: unknown };
    expect(doc.schema).toBe('parallax.comparison-report');
    expect(doc.version).toBe(1);
    const loaded = loadReportJson(text);
    expect(loaded.meta).toEqual(stored.meta);
    expect(loaded.events).toEqual(stored.events);
    const runs = loaded.meta.runs.map((r) => summarizeRun(groupByRun(loaded.events).get(r.runId) ?? []));
    const { byMode, result, ...summary } = loaded.summary as typeof loaded.summary & { result: unknown };
    expect(summarizeComparison(runs)).toEqual(summary);
    // The result statement leads the summary: the one every report and the CLI show first.
    expect(Object.keys(doc.summary as object)[0]).toBe('result');
    expect(result).toEqual(resultStatement({ runs: runs.map((summary) => ({ trial: 1, summary })), simulated: true }));
    expect(summarizeStored(loaded.meta, loaded.events, loaded.interruptedRunIds)).toEqual(summary);
    // One trial: the file is written as before trials existed (no byMode), and the loader rebuilds it.
    expect((doc as { summary: Record<string, unknown> }).summary).not.toHaveProperty('byMode');
    expect(byMode).toEqual(aggregateByColumn(runs));
    // And a report made from the loaded file is the report made from history.
    expect(
      (
        await buildReport(
          {
            meta: loaded.meta,
            events: loaded.events,
            warnings: stored.warnings,
            interruptedRunIds: stored.interruptedRunIds,
          },
          'md',
        )
      ).content,
    ).toBe((await buildReport(stored, 'md')).content);
  });

  it('explains what is wrong with a file that is not a report', async () => {
    const err = (text: string) => {
      try {
        loadReportJson(text);
      } catch (e) {
        expect(e).toBeInstanceOf(ReportFileError);
        return (e as Error).message;
      }
      throw new Error('loadReportJson accepted a bad file');
    };
    expect(err('<!doctype html>')).toMatch(/not JSON.*parallax report <id> --format json/);
    expect(err('[1,2]')).toMatch(/holds an array/);
    expect(err('{"name":"parallax","version":"0.1.0"}')).toMatch(
      /no "schema" field, expected "parallax.comparison-report"/,
    );
    expect(err('{"schema":"other.thing","version":1}')).toMatch(/"schema": "other.thing"/);
    const good = JSON.parse((await buildReport(stored, 'json')).content) as Record<string, unknown>;
    expect(err(JSON.stringify({ ...good, version: 2 }))).toMatch(/version 2, made by a newer Parallax/);
    const events = structuredClone(good.events) as Record<string, unknown>[];
    const i = events.findIndex((e) => e.type === 'model-response');
    events[i] = { ...events[i], usage: { prompt: 'lots', completion: 1 } };
    expect(err(JSON.stringify({ ...good, events }))).toMatch(new RegExp(`damaged.*events\\.${i}\\.usage\\.prompt`));
  });
});

const METRIC_ROWS: [string, keyof RunTotals][] = [
  ['Steps', 'steps'],
  ['Requests', 'requests'],
  ['Prompt tokens', 'prompt'],
  ['Completion tokens', 'completion'],
  ['Cached tokens', 'cached'],
  ['Reasoning tokens', 'reasoning'],
  ['Total tokens', 'total'],
  ['Tool calls', 'toolCalls'],
];

/** Split a GFM table row into cells, honouring escaped pipes. */
function cells(line: string): string[] {
  return line.replace(/^\| | \|$/g, '').split(/ (?<!\\)\| /);
}

describe('Markdown', () => {
  it("puts each run's totals, recomputed from its events, in the summary table", async () => {
    const md = (await buildReport(stored, 'md')).content;
    const lines = md.split('\n');
    for (const [label, key] of METRIC_ROWS) {
      const row = lines.find((l) => l.startsWith(`| ${label} |`));
      expect(row, label).toBeDefined();
      const values = cells(row!)
        .slice(1)
        .map((c) =>
          Number(
            c
              .replace(/ \(.*\)$/, '')
              .replace(/ \+ [\d,]+ inside programs?$/, '')
              .replace(/,/g, ''),
          ),
        );
      expect(values).toEqual(stored.meta.runs.map((r) => computeTotals(byRun.get(r.runId)!)[key]));
    }
    expect(md).toContain('(simulated)');
  });

  it('has a step table per mode whose rows are the computed per-step usage', async () => {
    const md = (await buildReport(stored, 'md')).content;
    for (const [i, r] of stored.meta.runs.entries()) {
      const label = r.mode === 'react' ? 'ReAct' : 'Code Mode';
      const section = md.split(`## ${label} — steps`)[1].split('\n## ')[0];
      const rows = section
        .split('\n')
        .filter((l) => /^\| \d+ \|/.test(l))
        .map(cells);
      const per = computePerStep(byRun.get(stored.meta.runs[i].runId)!);
      expect(rows.map((c) => Number(c[1].replace(/,/g, '')))).toEqual(per.map((s) => s.prompt));
      expect(rows.map((c) => Number(c[2].replace(/,/g, '')))).toEqual(per.map((s) => s.completion));
    }
  });

  it('keeps the table whole when an answer holds pipes, newlines and markup', async () => {
    const md = (await buildReport(withAnswer(stored, 0, 'a | b\nc <script>alert(1)</script> | d'), 'md')).content;
    const header = md.split('\n').find((l) => l.startsWith('|  |'))!;
    const answer = md.split('\n').find((l) => l.startsWith('| Answer |'))!;
    expect(cells(answer)).toHaveLength(cells(header).length);
    expect(answer).toContain('a \\| b<br>c &lt;script&gt;alert(1)&lt;/script&gt; \\| d');
    expect(md).not.toContain('<script>');
  });
});

describe('a run that did not answer', () => {
  it('is shown as unfinished and gets no Δ (not like for like)', async () => {
    const [first, second] = stored.meta.runs;
    const events = byRun.get(second.runId)!;
    const cut = events.slice(0, events.findIndex((e) => e.type === 'model-response') + 1);
    const partial = { ...stored, events: [...byRun.get(first.runId)!, ...cut] };
    const md = (await buildReport(partial, 'md')).content;
    expect(md).toMatch(/^\| Status \| answered \| unfinished \|$/m);
    const total = md.split('\n').find((l) => l.startsWith('| Total tokens |'))!;
    expect(total).toMatch(/ \(no Δ\\\*\) \|$/);
    expect(total).not.toMatch(/%/);
    expect(md).toContain(NO_DIFF_NOTE);
    const html = (await buildReport(partial, 'html')).content;
    expect(html).toContain('no Δ *');
    expect(md).toContain('Not ranked (did not answer): Code Mode (unfinished)');
    const complete = (await buildReport(stored, 'md')).content;
    expect(complete).not.toContain(NO_DIFF_NOTE);
  });
});
