/**
 * The CSV export: one row per step per run, every usage field, through papaparse (quoting and escaping of
 * commas, quotes and line breaks is its job, not ours). A `simulated` column labels simulated figures; `trial`
 * (1-based, 1 for comparisons stored before trials existed) lets a spreadsheet group runs of several trials.
 * The last columns say where each step's usage came from (reported, estimated or missing), its cost in USD
 * (empty when unknown), where the cost came from (provider, price, or why there is none) and the date of
 * the price used; they were added after the others, so older readers that pick columns by name still work.
 */
import Papa from 'papaparse';
import type { ReportData } from './report-data.js';
import { NO_PRICE_TEXT } from '../../../shared/pricing.js';

export const CSV_COLUMNS = [
  'comparison_id', 'run_id', 'mode', 'trial', 'status', 'step', 'prompt', 'completion', 'cached', 'reasoning', 'total',
  'usage_missing', 'latency_ms', 'attempts', 'tool_calls', 'provider', 'model', 'simulated',
  'cache_write', 'usage_source', 'cost_usd', 'cost_source', 'price_date',
] as const;

export function renderCsv(d: ReportData): string {
  const rows: (string | number | boolean)[][] = [];
  for (const r of d.runs) {
    const status = r.summary.status === 'running' ? 'unfinished' : r.summary.status;
    const provider = r.started?.provider ?? d.meta.provider;
    const cost = r.summary.cost;
    const writes = new Map(r.events.flatMap((e) => (e.type === 'model-response' ? [[e.step, e.usage?.cacheWrite ?? 0] as const] : [])));
    for (const s of r.summary.perStep) {
      const source = s.cost.from === 'provider' ? 'provider' : s.cost.from === 'price' ? 'price' : s.usageMissing ? 'no usage' : cost.kind === 'priced' ? 'no usage' : NO_PRICE_TEXT[cost.kind];
      rows.push([
        d.meta.id, r.runId, r.mode, r.trial, status, s.step, s.prompt, s.completion, s.cached, s.reasoning, s.prompt + s.completion,
        s.usageMissing, s.latencyMs, s.attempts, s.toolCalls, provider.name, provider.model, provider.simulated,
        writes.get(s.step) ?? 0, s.usageSource, s.cost.usd === null ? '' : Number(s.cost.usd.toPrecision(12)), source, s.cost.from === 'price' ? cost.price?.tableDate ?? '' : '',
      ]);
    }
  }
  // CRLF per RFC 4180; escapeFormulae keeps a user-typed model name like "=HYPERLINK(…)" from running as a
  // spreadsheet formula (it only touches strings, never the numbers).
  return Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { newline: '\r\n', escapeFormulae: true }) + '\r\n';
}
