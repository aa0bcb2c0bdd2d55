/**
 * The JSON export and its loader. The file holds the comparison's meta and every stored event, so loading it
 * back and running the report math again gives the same summary; the summary is included for readers
 * that do not want to recompute it. With several trials the summary also holds `byMode` (aggregateByColumn:
 * each figure's n, mean, sd, 95 % interval, min and max; the pass rate with Wilson's interval) and
 * `differences` (each mode against the first: difference, intervals, exact permutation p, a sentence);
 * a one-trial file is written as before, and the loader rebuilds `byMode` for any file that lacks it. A comparison
 * whose columns make a models × modes matrix also holds `matrix` (shared/matrix.ts).
 */
import { z } from 'zod';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { comparisonMetaSchema } from '../../../shared/comparison-meta-schema.js';
import { metaWithCurrentNames } from '../../../shared/former-setting-names.js';
import { COLUMN_MODE_IDS as MODE_IDS } from '../../../shared/run-spec.js';
import { eventWithCurrentNames, stepEventSchema } from '../../../shared/step-event-schema.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { FIGURES_NOTE, type ComparisonSummary, type ModeAggregate } from '../../../shared/summary.js';
import type { ModeDifference } from '../../../shared/trial-differences.js';
import type { Matrix } from '../../../shared/matrix.js';
import type { ResultStatement } from '../../../shared/result-statement.js';
import { aggregateStored, type ReportData } from './report-data.js';

export const REPORT_SCHEMA = 'parallax.comparison-report';
export const REPORT_VERSION = 1;

export interface ComparisonReportJson {
  readonly schema: typeof REPORT_SCHEMA;
  readonly version: typeof REPORT_VERSION;
  readonly comparison: ComparisonMeta;
  readonly events: readonly StepEvent[];
  /** Runs without run-finished that died with their host (they show as interrupted). */
  readonly interruptedRunIds: readonly string[];
  /** `byMode`, `differences` and `figures` (which runs the figures cover) are written when the comparison has several trials. */
  readonly summary: ComparisonSummary & {
    readonly result?: ResultStatement;
    readonly byMode?: readonly ModeAggregate[];
    readonly differences?: readonly ModeDifference[];
    readonly figures?: string;
    readonly matrix?: Matrix;
  };
}

export function renderJson(d: ReportData, events: readonly StepEvent[]): string {
  const trials =
    d.trials > 1
      ? { ...d.comparison, byMode: d.byMode, differences: d.differences, figures: FIGURES_NOTE }
      : d.comparison;
  // The matrix (models × modes) is written when the columns make one: a comparison of modes has none.
  // The result statement leads the summary, as it leads every other report.
  const summary = { result: d.result, ...(d.matrix ? { ...trials, matrix: d.matrix } : trials) };
  const doc: ComparisonReportJson = {
    schema: REPORT_SCHEMA,
    version: REPORT_VERSION,
    comparison: d.meta,
    events,
    interruptedRunIds: d.interruptedRunIds,
    summary,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const int = z.number().int().nonnegative();
const totalsSchema = z.looseObject({ steps: int, requests: int, prompt: int, completion: int, total: int });
const interval = z.tuple([z.number(), z.number()]).nullable();
// n, sd and ci95 came with the statistics over trials: optional, so files written before them still load.
const statSchema = z
  .looseObject({
    mean: z.number(),
    min: z.number(),
    max: z.number(),
    n: int.optional(),
    sd: z.number().nullable().optional(),
    ci95: interval.optional(),
  })
  .nullable();
const aggregateSchema = z.looseObject({
  mode: z.enum(MODE_IDS),
  trials: int,
  answered: int,
  passed: int,
  steps: statSchema,
  requests: statSchema,
  prompt: statSchema,
  completion: statSchema,
  cached: statSchema,
  total: statSchema,
  wallMs: statSchema,
  toolCalls: statSchema,
});
const summarySchema = z.looseObject({
  runs: z.array(z.looseObject({ runId: z.string(), mode: z.string(), status: z.string(), totals: totalsSchema })),
  baselineRunId: z.string().nullable(),
  cheapestRunId: z.string().nullable(),
  totalDiffPercent: z.record(z.string(), z.number().nullable()),
  byMode: z.array(aggregateSchema).optional(),
  differences: z
    .array(
      z.looseObject({
        mode: z.enum(MODE_IDS),
        baseline: z.enum(MODE_IDS),
        figure: z.string(),
        p: z.number().nullable(),
        sentence: z.string(),
      }),
    )
    .optional(),
});

const reportSchema = z.object({
  schema: z.literal(REPORT_SCHEMA),
  version: z.literal(REPORT_VERSION),
  comparison: comparisonMetaSchema,
  events: z.array(stepEventSchema),
  interruptedRunIds: z.array(z.string()).default([]),
  summary: summarySchema,
});

export class ReportFileError extends Error {
  override readonly name = 'ReportFileError';
}

const WHAT_IT_IS =
  'A Parallax comparison report is the .json file written by `parallax report <id> --format json` or by Export → JSON in the app.';

/** Parse and validate a JSON report. Throws ReportFileError saying what is wrong with the file. */
export function loadReportJson(text: string): {
  meta: ComparisonMeta;
  events: StepEvent[];
  interruptedRunIds: string[];
  summary: ComparisonSummary & { byMode: readonly ModeAggregate[] };
} {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ReportFileError(
      `This file is not JSON (${err instanceof Error ? err.message : String(err)}). ${WHAT_IT_IS}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ReportFileError(
      `This JSON file is not a Parallax comparison report: it holds ${Array.isArray(value) ? 'an array' : typeof value}, not an object. ${WHAT_IT_IS}`,
    );
  }
  const v = value as Record<string, unknown>;
  if (v.schema !== REPORT_SCHEMA) {
    const found = v.schema === undefined ? 'no "schema" field' : `"schema": ${JSON.stringify(v.schema)}`;
    throw new ReportFileError(
      `This JSON file is not a Parallax comparison report: it has ${found}, expected "${REPORT_SCHEMA}". ${WHAT_IT_IS}`,
    );
  }
  if (v.version !== REPORT_VERSION) {
    const newer = typeof v.version === 'number' && v.version > REPORT_VERSION;
    throw new ReportFileError(
      newer
        ? `This report is version ${v.version}, made by a newer Parallax; this one reads version ${REPORT_VERSION}. Update Parallax to open it.`
        : `This report has an unsupported version ${JSON.stringify(v.version)}; this Parallax reads version ${REPORT_VERSION}.`,
    );
  }
  const parsed = reportSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    throw new ReportFileError(`This Parallax report is damaged or was edited by hand — ${issues.join('; ')}${more}.`);
  }
  // Checked, then taken as written: the schemas drop fields they do not know, and the events must come back whole.
  const meta = metaWithCurrentNames(v.comparison as ComparisonMeta);
  const events = (v.events as StepEvent[]).map(eventWithCurrentNames);
  const summary = parsed.data.summary as unknown as ComparisonSummary & { byMode?: readonly ModeAggregate[] };
  // Files written before trials existed (and one-trial files) have no byMode: it is the same math over the events.
  const byMode = summary.byMode ?? aggregateStored(meta, events, parsed.data.interruptedRunIds);
  return { meta, events, interruptedRunIds: parsed.data.interruptedRunIds, summary: { ...summary, byMode } };
}
