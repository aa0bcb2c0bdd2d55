/**
 * The CSV export: one row per step per run, every usage field, through papaparse (quoting and escaping of
 * commas, quotes and line breaks is its job, not ours). A `simulated` column labels simulated figures; `trial`
 * (1-based, 1 for comparisons stored before trials existed) lets a spreadsheet group runs of several trials.
 */
import Papa from 'papaparse';
import type { ReportData } from './report-data.js';

export const CSV_COLUMNS = [
  'comparison_id', 'run_id', 'mode', 'trial', 'status', 'step', 'prompt', 'completion', 'cached', 'reasoning', 'total',
  'usage_missing', 'latency_ms', 'attempts', 'tool_calls', 'provider', 'model', 'simulated',
] as const;

export function renderCsv(d: ReportData): string {
  const rows: (string | number | boolean)[][] = [];
  for (const r of d.runs) {
    const status = r.summary.status === 'running' ? 'unfinished' : r.summary.status;
    const provider = r.started?.provider ?? d.meta.provider;
    for (const s of r.summary.perStep) {
      rows.push([
        d.meta.id, r.runId, r.mode, r.trial, status, s.step, s.prompt, s.completion, s.cached, s.reasoning, s.prompt + s.completion,
        s.usageMissing, s.latencyMs, s.attempts, s.toolCalls, provider.name, provider.model, provider.simulated,
      ]);
    }
  }
  // CRLF per RFC 4180; escapeFormulae keeps a user-typed model name like "=HYPERLINK(…)" from running as a
  // spreadsheet formula (it only touches strings, never the numbers).
  return Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { newline: '\r\n', escapeFormulae: true }) + '\r\n';
}
