/**
 * The StepEvent union (step-event.ts) as one zod schema: what history loading, the JSON report loader and the
 * worker → host boundary check an event against. tests/shared/step-event-schema.test.ts proves at compile
 * time that the schema and the TypeScript types describe the same objects, so a field added to one and not
 * the other fails `npm run typecheck`.
 *
 * Checking never rewrites an event: `checkStepEvent` validates and hands back the value as it was, so fields a
 * newer version added survive a round trip through an older reader. The one exception: a run-started written
 * before a setting was renamed comes back with its settings under today's names (run-spec.ts currentSettingNames).
 */
import { PROMPT_PARTS, type PromptPart } from './prompt-composition.js';
import { z } from 'zod';
import { COLUMN_MODE_IDS, currentSettingNames, storedSettingsSchema } from './run-spec.js';
import type { StepEvent } from './step-event.js';
import { STEP_PHASE_PATTERN } from './step-phase.js';

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();

export const taskRefSchema = z.object({ id: z.string().nullable(), text: z.string() });
export const providerInfoSchema = z.object({
  name: z.string(),
  baseUrl: z.string(),
  model: z.string(),
  simulated: z.boolean(),
  protocol: z.enum(['openai', 'anthropic']).optional(),
});

export const usageSchema = z.object({
  prompt: count,
  completion: count,
  cached: count.optional(),
  reasoning: count.optional(),
  total: count.optional(),
  cacheWrite: count.optional(),
  cacheWrite1h: count.optional(),
  webSearches: count.optional(),
  cost: z.number().nonnegative().optional(),
});

export const modelPriceSchema = z.object({
  model: z.string(),
  input: z.number(),
  cachedInput: z.number().nullable(),
  cacheWrite: z.number().nullable(),
  output: z.number(),
  cacheWrite1h: z.number().nullable().optional(),
  webSearch: z.number().nullable().optional(),
  tableDate: z.string(),
});

const toolCallRequestSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  cut: z.literal(true).optional(),
});
const toolExposureSchema = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});
export const runStatusSchema = z.enum([
  'answered',
  'no-policy',
  'refused',
  'truncated',
  'empty',
  'max-steps',
  'cancelled',
  'error',
  'crashed',
]);
const validationSchema = z.object({ ok: z.boolean(), detail: z.string() });
export const runTotalsSchema = z.object({
  steps: count,
  requests: count,
  prompt: count,
  completion: count,
  cached: count,
  reasoning: count,
  total: count,
  toolCalls: count,
  wallMs: ms,
  approvalWaitMs: ms.default(0),
  startupMs: ms.default(0),
});
const workerStartSchema = z.object({ ms, beforeRunMs: ms, pooled: z.boolean() });
const codeErrorSchema = z.object({
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  message: z.string(),
});
const innerToolCallSchema = z.object({
  name: z.string(),
  args: z.unknown(),
  durationMs: ms,
  startMs: ms.optional(),
  resultBytes: count,
  error: z.string().nullable(),
});
const searchHitSchema = z.object({ name: z.string(), score: z.number(), signature: z.string() });
/** run_shell, write_file, fetch_url, or an MCP tool by its name (the policy's `mcp` entry covers them all). */
export const approvalToolSchema = z.string().min(1);
export const approvalDecisionSchema = z.enum(['allow', 'deny', 'allow-comparison', 'cancelled']);

/** A run's column (shared/variants.ts): its key is path-safe, like ids. */
export const columnRefSchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/),
  label: z.string().min(1).max(200),
});

const elicitFieldsSchema = z.array(
  z.object({
    key: z.string(),
    kind: z.enum(['string', 'number', 'integer', 'boolean', 'choice', 'choices']),
    title: z.string(),
    description: z.string().optional(),
    required: z.boolean(),
    options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    format: z.string().optional(),
    default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  }),
);

const base = { runId: z.string().min(1), seq: count, t: ms };

export const runStartedEventSchema = z.object({
  ...base,
  type: z.literal('run-started'),
  mode: z.enum(COLUMN_MODE_IDS),
  task: taskRefSchema,
  provider: providerInfoSchema,
  settings: storedSettingsSchema,
  systemPrompt: z.string(),
  tools: z.array(toolExposureSchema),
  startedAt: z.number(),
  comparisonId: z.string().optional(),
  price: modelPriceSchema.nullable().optional(),
  workerStart: workerStartSchema.optional(),
  variant: columnRefSchema.optional(),
  mcpTools: z
    .array(
      z.object({
        name: z.string(),
        server: z.string(),
        tool: z.string(),
        title: z.string().optional(),
        annotations: z
          .object({
            title: z.string().optional(),
            readOnlyHint: z.boolean().optional(),
            destructiveHint: z.boolean().optional(),
            idempotentHint: z.boolean().optional(),
            openWorldHint: z.boolean().optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});

export const stepEventSchema = z.discriminatedUnion('type', [
  runStartedEventSchema,
  z.object({
    ...base,
    type: z.literal('model-request'),
    step: count,
    attempt: count,
    messageCount: count,
    toolNames: z.array(z.string()),
    addedTools: z.array(toolExposureSchema).optional(),
    addedMessages: z.array(z.object({ role: z.string(), content: z.string() })).optional(),
    clearedResults: z.array(z.object({ callId: z.string(), step: count, text: z.string() })).optional(),
    phase: z.string().regex(STEP_PHASE_PATTERN).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('model-retry'),
    step: count,
    attempt: count,
    status: z.number().int().nullable(),
    message: z.string(),
    delayMs: ms,
  }),
  z.object({
    ...base,
    type: z.literal('model-response'),
    step: count,
    usage: usageSchema.nullable(),
    usageSource: z.enum(['reported', 'estimated']).optional(),
    latencyMs: ms,
    firstTokenMs: ms.optional(),
    finishReason: z.string().nullable(),
    stopReason: z.string().optional(),
    requestId: z.string().optional(),
    text: z.string(),
    reasoningText: z.string().optional(),
    refusal: z.string().optional(),
    stopDetails: z.string().optional(),
    toolCalls: z.array(toolCallRequestSchema),
    parsed: z
      .object({
        thought: z.string().nullable(),
        finalAnswer: z.string().nullable(),
        parseError: z.string().nullable(),
        kept: count,
      })
      .optional(),
    promptComposition: z
      .object({
        ...(Object.fromEntries(PROMPT_PARTS.map((p) => [p, count])) as Record<PromptPart, typeof count>),
        cleared: z.object({ results: count, tokens: z.number().int() }).optional(),
        summarized: z.object({ fromStep: count, toStep: count, replacedTokens: count, tokens: count }).optional(),
      })
      .optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool-started'),
    step: count,
    callId: z.string(),
    name: z.string(),
    args: z.unknown(),
    forwardedBy: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool-finished'),
    step: count,
    callId: z.string(),
    name: z.string(),
    output: z.string(),
    rawSize: count,
    truncated: z.boolean(),
    durationMs: ms,
    error: z.string().nullable(),
    cancelled: z.literal(true).optional(),
    forwardedBy: z.string().optional(),
    repeatOf: z.object({ step: count, callId: z.string() }).optional(),
    mcpContent: z
      .array(
        z.object({
          type: z.string(),
          mimeType: z.string().optional(),
          size: count.optional(),
          uri: z.string().optional(),
          audience: z.array(z.enum(['user', 'assistant'])).optional(),
          priority: z.number().min(0).max(1).optional(),
          lastModified: z.string().optional(),
        }),
      )
      .optional(),
  }),
  z.object({
    ...base,
    type: z.literal('code-run'),
    step: count,
    callId: z.string(),
    code: z.string(),
    output: z.string(),
    error: codeErrorSchema.nullable(),
    toolCalls: z.array(innerToolCallSchema),
    toolBytes: count,
    printedBytes: count,
    durationMs: ms,
    limitHit: z.enum(['time', 'memory', 'output', 'tool-calls']).nullable(),
    state: z
      .object({
        variables: z.array(z.object({ name: z.string(), type: z.string(), bytes: count.nullable() })),
        memoryBytes: count.nullable(),
        lost: z.boolean(),
      })
      .optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool-search'),
    step: count,
    callId: z.string(),
    query: z.string(),
    hits: z.array(searchHitSchema),
  }),
  z.object({
    ...base,
    type: z.literal('approval-requested'),
    step: count,
    callId: z.string(),
    approvalId: z.string().min(1),
    tool: approvalToolSchema,
    server: z.string().optional(),
    args: z.unknown(),
    inProgram: z.boolean(),
  }),
  z.object({
    ...base,
    type: z.literal('approval-resolved'),
    step: count,
    callId: z.string(),
    approvalId: z.string().min(1),
    tool: approvalToolSchema,
    decision: approvalDecisionSchema,
    waitedMs: ms,
  }),
  z.object({ ...base, type: z.literal('run-warning'), message: z.string() }),
  z.object({
    ...base,
    type: z.literal('tool-progress'),
    step: count,
    callId: z.string(),
    name: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
    inProgram: z.boolean(),
  }),
  z.object({
    ...base,
    type: z.literal('sampling'),
    step: count,
    callId: z.string(),
    server: z.string(),
    messages: z.array(z.object({ role: z.string(), text: z.string() })),
    systemPrompt: z.string().optional(),
    maxTokens: count,
    usage: usageSchema.nullable(),
    usageSource: z.enum(['reported', 'estimated']).optional(),
    latencyMs: ms,
    text: z.string(),
    finishReason: z.string().nullable(),
    error: z.string().nullable(),
  }),
  z.object({
    ...base,
    type: z.literal('history-summary'),
    step: count,
    fromStep: count,
    toStep: count,
    replacedMessages: count,
    replacedTokens: count,
    text: z.string(),
    usage: usageSchema.nullable(),
    usageSource: z.enum(['reported', 'estimated']).optional(),
    latencyMs: ms,
    error: z.string().nullable(),
  }),
  z.object({
    ...base,
    type: z.literal('elicitation'),
    step: count,
    callId: z.string(),
    server: z.string(),
    message: z.string(),
    fields: elicitFieldsSchema,
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
    reason: z.string().optional(),
    waitedMs: ms,
    elicitationId: z.string().min(1).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('elicitation-requested'),
    step: count,
    callId: z.string(),
    elicitationId: z.string().min(1),
    server: z.string(),
    message: z.string(),
    fields: elicitFieldsSchema,
    timeoutMs: ms,
  }),
  z.object({
    ...base,
    type: z.literal('run-finished'),
    status: runStatusSchema,
    answer: z.string(),
    error: z.string().optional(),
    validation: validationSchema.nullable(),
    totals: runTotalsSchema,
  }),
]);

export type CheckedEvent =
  | { readonly ok: true; readonly event: StepEvent }
  | { readonly ok: false; readonly problem: string };

/** zod issues in one line a person can act on: `usage.prompt: expected number, received string`. */
export function describeIssues(error: z.ZodError, max = 3): string {
  // zod says "Invalid input: expected number, received undefined" for a field that is not there.
  const say = (message: string): string =>
    /received undefined$/.test(message) ? 'missing' : message.replace(/^Invalid input: /, '');
  const parts = error.issues
    .slice(0, max)
    .map((i) => `${i.path.length ? i.path.join('.') : '(the value)'}: ${say(i.message)}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}

/** An event as today's readers expect it: a run-started's settings under their current names (older logs). */
export function eventWithCurrentNames<E extends StepEvent>(event: E): E {
  if (event.type !== 'run-started') return event;
  const settings = currentSettingNames(event.settings);
  return settings === event.settings ? event : { ...event, settings };
}

/**
 * Check one value against the StepEvent schema. On success the value itself is returned, unchanged but for
 * settings stored under a former name (eventWithCurrentNames).
 */
export function checkStepEvent(value: unknown): CheckedEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problem: `expected an event object, found ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    };
  }
  const type = (value as { type?: unknown }).type;
  const result = stepEventSchema.safeParse(value);
  if (result.success) return { ok: true, event: eventWithCurrentNames(value as StepEvent) };
  const what = typeof type === 'string' ? `a ${type} event` : 'an event';
  return { ok: false, problem: `${what} that does not match the event format — ${describeIssues(result.error)}` };
}
