/**
 * A comparison's meta.json (ComparisonMeta, ipc-contract.ts) as one zod schema, checked when history is loaded
 * and by the JSON report loader. tests/shared/step-event-schema.test.ts proves at compile time that it and the
 * type agree. Like events, a checked meta is handed back as it was written, but for settings stored under a
 * former name, which come back under today's (metaWithCurrentNames).
 */
import { z } from 'zod';
import type { ComparisonMeta } from './ipc-contract.js';
import { COLUMN_MODE_IDS, MAX_TRIALS, storedSettingsSchema } from './run-spec.js';
import { formerNameConflict, metaWithCurrentNames } from './former-setting-names.js';
import { MAX_CONCURRENCY } from './concurrency.js';
import { describeIssues, providerInfoSchema, taskRefSchema } from './step-event-schema.js';
import { ID_PATTERN } from './ids.js';

export { ID_PATTERN };

export const comparisonMetaSchema = z.object({
  id: z.string().regex(ID_PATTERN, 'not a valid comparison id'),
  createdAt: z.number(),
  task: taskRefSchema,
  provider: providerInfoSchema,
  settings: storedSettingsSchema,
  runs: z
    .array(
      z.object({
        runId: z.string().regex(ID_PATTERN, 'not a valid run id'),
        mode: z.enum(COLUMN_MODE_IDS),
        trial: z.number().int().min(1).max(MAX_TRIALS).optional(),
        variant: z.string().regex(ID_PATTERN, 'not a valid column key').optional(),
      }),
    )
    .min(1, 'a comparison has at least one run'),
  workspaceSource: z.string(),
  variants: z
    .array(
      z.object({
        key: z.string().regex(ID_PATTERN, 'not a valid column key'),
        label: z.string().min(1),
        mode: z.enum(COLUMN_MODE_IDS),
        provider: z.string().optional(),
        baseUrl: z.string().nullable().optional(),
        protocol: z.enum(['openai', 'anthropic']).optional(),
        model: z.string().optional(),
        settings: z
          .record(z.string(), z.unknown())
          .superRefine((settings, ctx) => {
            const conflict = formerNameConflict(settings);
            if (conflict) ctx.addIssue({ code: 'custom', message: conflict });
          })
          .optional(),
        agent: z
          .object({
            command: z.array(z.string()),
            envNames: z.array(z.string()).optional(),
            timeoutMs: z.number().optional(),
            paths: z.array(z.string()).optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
  throttled: z.array(z.string()).optional(),
});

export type CheckedMeta =
  | { readonly ok: true; readonly meta: ComparisonMeta }
  | { readonly ok: false; readonly problem: string };

export function checkComparisonMeta(value: unknown): CheckedMeta {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problem: `it holds ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}, not a comparison record`,
    };
  }
  const result = comparisonMetaSchema.safeParse(value);
  if (!result.success) return { ok: false, problem: describeIssues(result.error) };
  const meta = metaWithCurrentNames(value as ComparisonMeta);
  const ids = new Set(meta.runs.map((r) => r.runId));
  if (ids.size !== meta.runs.length) return { ok: false, problem: 'runs: the same run id is listed twice' };
  if (meta.variants) {
    const keys = new Set(meta.variants.map((v) => v.key));
    if (keys.size !== meta.variants.length)
      return { ok: false, problem: 'variants: the same column key is listed twice' };
    const stray = meta.runs.find((r) => r.variant !== undefined && !keys.has(r.variant));
    if (stray)
      return {
        ok: false,
        problem: `runs: ${stray.runId} names column "${stray.variant}", which variants does not list`,
      };
  }
  return { ok: true, meta };
}
