/**
 * The spans of a comparison's trace, planned from its stored events only (no OpenTelemetry code here: otlp-report.ts
 * turns the plan into SDK spans). Names and attributes follow the OpenTelemetry GenAI semantic conventions: a root
 * span for the comparison, an `invoke_agent` span per run, a `chat {model}` span per model request and an
 * `execute_tool {tool}` span per tool call (calls made inside a Code Mode program are children of their run_code
 * span). Parallax's own figures go under `parallax.*`. Token usage (gen_ai.usage.*) is on chat spans only, so a
 * backend that sums usage over spans gets each run's totals exactly once: requests that are not steps (a
 * `summarize:K` history summary, an MCP server's sampling request) are chat spans too, told apart by
 * `parallax.request.kind`, as computeTotals counts them.
 */
import { createHash } from 'node:crypto';
import { PROMPT_PARTS } from '../../../shared/prompt-composition.js';
import type { ProviderInfo } from '../../../shared/run-spec.js';
import type {
  CodeRunEvent,
  HistorySummaryEvent,
  ModelRequestEvent,
  SamplingEvent,
  StepEvent,
  ToolSearchEvent,
  Usage,
} from '../../../shared/step-event.js';
import type { ReportData, ReportRun } from './report-data.js';
import { statusLabel, statusNote } from './report-data.js';

export type SpanAttributeValue = string | number | boolean | readonly string[];
export type SpanAttributes = Record<string, SpanAttributeValue>;

export interface PlannedSpan {
  readonly spanId: string;
  readonly name: string;
  readonly kind: 'internal' | 'client';
  /** Epoch milliseconds (fractions kept). */
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: SpanAttributes;
  /** null: unset; the message says what went wrong. */
  readonly error: string | null;
  readonly children: readonly PlannedSpan[];
}

export interface PlannedTrace {
  readonly traceId: string;
  readonly root: PlannedSpan;
}

/** Ids derived from the comparison's id, so exporting the same comparison twice gives the same trace. */
export function traceIdOf(comparisonId: string): string {
  return nonZero(createHash('sha256').update(`parallax trace ${comparisonId}`).digest('hex').slice(0, 32));
}

function spanIdOf(comparisonId: string, key: string): string {
  return nonZero(createHash('sha256').update(`parallax span ${comparisonId} ${key}`).digest('hex').slice(0, 16));
}

// An all-zero id is invalid in OTLP; a hash gives one with probability 2^-64, but the rule is cheap to keep.
const nonZero = (hex: string): string => (/^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex);

/**
 * Langfuse guesses an observation's type from its attributes (a model name can make a span a generation); the
 * type is said outright, so only chat spans are generations there. Other backends ignore the attribute.
 */
const LANGFUSE_TYPE = 'langfuse.observation.type';

/** Well-known gen_ai.provider.name values of the presets that have one; other presets keep their own name. */
const GEN_AI_PROVIDER: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  deepseek: 'deepseek',
  gemini: 'gcp.gemini',
  groq: 'groq',
  xai: 'x_ai',
  mistral: 'mistral_ai',
  simulated: 'parallax.simulated',
};

export const genAiProviderName = (p: ProviderInfo): string =>
  p.simulated ? 'parallax.simulated' : (GEN_AI_PROVIDER[p.name] ?? p.name);

/** The base URL without user info, query or fragment: what a trace may show of where requests went. */
function publicUrl(url: string): { url: string; host: string | null; port: number | null } {
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : null;
    return { url: `${u.protocol}//${u.host}${u.pathname}`, host: u.hostname, port };
  } catch {
    return { url: '', host: null, port: null };
  }
}

function providerAttributes(p: ProviderInfo): SpanAttributes {
  const where = publicUrl(p.baseUrl);
  return {
    'gen_ai.provider.name': genAiProviderName(p),
    'gen_ai.request.model': p.model,
    'parallax.provider.preset': p.name,
    ...(where.url ? { 'parallax.provider.base_url': where.url } : {}),
    ...(where.host ? { 'server.address': where.host } : {}),
    ...(where.port ? { 'server.port': where.port } : {}),
  };
}

function usageAttributes(u: Usage | null): SpanAttributes {
  return u
    ? {
        'gen_ai.usage.input_tokens': u.prompt,
        'gen_ai.usage.output_tokens': u.completion,
        ...(u.cached !== undefined ? { 'gen_ai.usage.cache_read.input_tokens': u.cached } : {}),
        ...(u.cacheWrite !== undefined ? { 'gen_ai.usage.cache_creation.input_tokens': u.cacheWrite } : {}),
        ...(u.reasoning !== undefined ? { 'gen_ai.usage.reasoning.output_tokens': u.reasoning } : {}),
        ...(u.total !== undefined ? { 'parallax.usage.provider_total_tokens': u.total } : {}),
      }
    : {};
}

export function planTrace(data: ReportData): PlannedTrace {
  const id = data.meta.id;
  const runs = data.runs.map((r) => planRun(id, r, data.meta.createdAt));
  const startMs = Math.min(data.meta.createdAt, ...runs.map((r) => r.startMs));
  const endMs = Math.max(startMs, ...runs.map((r) => r.endMs));
  const c = data.comparison;
  const root: PlannedSpan = {
    spanId: spanIdOf(id, 'comparison'),
    name: `compare ${data.meta.task.id ?? 'custom task'}`,
    kind: 'internal',
    startMs,
    endMs,
    attributes: {
      ...providerAttributes(data.meta.provider),
      [LANGFUSE_TYPE]: 'span',
      'parallax.comparison.id': id,
      'parallax.task.id': data.meta.task.id ?? '',
      'parallax.task.text': data.meta.task.text,
      'parallax.simulated': data.simulated,
      'parallax.modes': [...new Set(data.runs.map((r) => r.mode))],
      ...(data.variants ? { 'parallax.variants': data.variants.map((v) => v.label) } : {}),
      'parallax.trials': data.trials,
      'parallax.runs': data.runs.length,
      'parallax.workspace.source': data.meta.workspaceSource,
      ...(c.fewestTokens.runId ? { 'parallax.verdict.fewest_tokens_run_id': c.fewestTokens.runId } : {}),
      ...(c.baselineRunId ? { 'parallax.baseline_run_id': c.baselineRunId } : {}),
    },
    error: null,
    children: runs,
  };
  return { traceId: traceIdOf(id), root };
}

function planRun(comparisonId: string, run: ReportRun, fallbackStart: number): PlannedSpan {
  const s = run.summary;
  const t0 = run.started?.startedAt ?? fallbackStart;
  const endMs = t0 + Math.max(0, ...run.events.map((e) => e.t));
  const provider = run.started?.provider ?? null;
  const failed = run.events.length === 0 || !['answered', 'running'].includes(s.status);
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'invoke_agent',
    [LANGFUSE_TYPE]: 'agent',
    'gen_ai.agent.name': run.label,
    'gen_ai.agent.id': run.runId,
    'gen_ai.conversation.id': run.runId,
    ...(provider ? providerAttributes(provider) : {}),
    'parallax.run.id': run.runId,
    'parallax.mode': run.mode,
    // A comparison of variants names each run's column (absent otherwise, so a comparison of modes exports as before).
    ...(run.started?.variant
      ? { 'parallax.variant.key': run.column.key, 'parallax.variant.label': run.column.label }
      : {}),
    'parallax.trial': run.trial,
    'parallax.status': statusLabel(run),
    ...(s.validation
      ? { 'parallax.validation.ok': s.validation.ok, 'parallax.validation.detail': s.validation.detail }
      : {}),
    'parallax.usage.source': s.usageSource,
    'parallax.totals.steps': s.totals.steps,
    'parallax.totals.requests': s.totals.requests,
    'parallax.totals.input_tokens': s.totals.prompt,
    'parallax.totals.output_tokens': s.totals.completion,
    'parallax.totals.cached_tokens': s.totals.cached,
    'parallax.totals.reasoning_tokens': s.totals.reasoning,
    'parallax.totals.total_tokens': s.totals.total,
    'parallax.totals.tool_calls': s.totals.toolCalls,
    'parallax.totals.program_tool_calls': s.programToolCalls,
    'parallax.totals.wall_ms': s.totals.wallMs,
    'parallax.totals.approval_wait_ms': s.totals.approvalWaitMs,
    'parallax.cost.kind': s.cost.kind,
    ...(s.cost.usd !== null ? { 'parallax.cost.usd': s.cost.usd } : {}),
    ...(s.cost.price ? { 'parallax.price.table_date': s.cost.price.tableDate } : {}),
  };
  return {
    spanId: spanIdOf(comparisonId, `run ${run.runId}`),
    name: `invoke_agent ${run.label}`,
    kind: 'internal',
    startMs: t0,
    endMs,
    attributes,
    error: failed ? (statusNote(run) ?? s.status) : null,
    children: planSteps(comparisonId, run, t0, endMs),
  };
}

/** The chat spans (one per model request, retries included) and tool spans of one run, in event order. */
function planSteps(comparisonId: string, run: ReportRun, t0: number, runEnd: number): PlannedSpan[] {
  const model = run.started?.provider.model ?? '';
  const provider = run.started?.provider;
  const common: SpanAttributes = provider
    ? { 'gen_ai.provider.name': genAiProviderName(provider), 'gen_ai.request.model': model }
    : {};
  const costOf = new Map(run.summary.perStep.map((p) => [p.step, p.cost]));
  const spans: PlannedSpan[] = [];
  let open: ModelRequestEvent | null = null;
  const chat = (req: ModelRequestEvent, endT: number, attrs: SpanAttributes, error: string | null): PlannedSpan => ({
    spanId: spanIdOf(comparisonId, `chat ${run.runId} ${req.seq}`),
    name: `chat ${model}`,
    kind: 'client',
    startMs: t0 + req.t,
    endMs: t0 + Math.max(req.t, endT),
    attributes: {
      'gen_ai.operation.name': 'chat',
      [LANGFUSE_TYPE]: 'generation',
      ...common,
      'parallax.step': req.step,
      'parallax.request.kind': 'step',
      'parallax.attempt': req.attempt,
      'parallax.message_count': req.messageCount,
      'parallax.tools_offered': req.toolNames.length,
      ...attrs,
    },
    error,
    children: [],
  });
  const tools = new Map<
    string,
    {
      started: StepEvent & { type: 'tool-started' };
      code?: CodeRunEvent;
      searches: ToolSearchEvent[];
      samplings: SamplingEvent[];
      waitMs: number;
    }
  >();
  const extra = (e: HistorySummaryEvent | SamplingEvent, key: string): PlannedSpan => ({
    spanId: spanIdOf(comparisonId, `${key} ${run.runId} ${e.seq}`),
    name: `chat ${model}`,
    kind: 'client',
    startMs: t0 + Math.max(0, e.t - e.latencyMs),
    endMs: t0 + e.t,
    attributes: {
      'gen_ai.operation.name': 'chat',
      [LANGFUSE_TYPE]: 'generation',
      ...common,
      'parallax.step': e.step,
      'parallax.request.kind': key,
      ...usageAttributes(e.usage),
      'parallax.usage.source': e.usage ? (e.usageSource ?? 'reported') : 'missing',
      'parallax.latency_ms': e.latencyMs,
      ...(e.type === 'history-summary'
        ? {
            'parallax.summary.from_step': e.fromStep,
            'parallax.summary.to_step': e.toStep,
            'parallax.summary.replaced_tokens': e.replacedTokens,
          }
        : {
            'parallax.sampling.server': e.server,
            'gen_ai.request.max_tokens': e.maxTokens,
            ...(e.finishReason ? { 'gen_ai.response.finish_reasons': [e.finishReason] } : {}),
          }),
      ...(e.error !== null ? { 'error.type': 'request_failed' } : {}),
    },
    error: e.error,
    children: [],
  });
  const toolOrder: string[] = [];
  for (const e of run.events) {
    if (e.type === 'model-request') open = e;
    else if (e.type === 'model-response' && open) {
      const u = e.usage;
      const cost = costOf.get(e.step);
      spans.push(
        chat(
          open,
          e.t,
          {
            ...usageAttributes(u),
            'parallax.usage.source': u ? (e.usageSource ?? 'reported') : 'missing',
            ...(e.finishReason ? { 'gen_ai.response.finish_reasons': [e.finishReason] } : {}),
            'parallax.latency_ms': e.latencyMs,
            'parallax.tool_calls': e.toolCalls.length,
            ...(cost?.usd != null ? { 'parallax.cost.usd': cost.usd, 'parallax.cost.from': cost.from ?? '' } : {}),
            ...(e.promptComposition
              ? Object.fromEntries(PROMPT_PARTS.map((p) => [`parallax.prompt.${p}_tokens`, e.promptComposition![p]]))
              : {}),
          },
          null,
        ),
      );
      open = null;
    } else if (e.type === 'model-retry' && open) {
      spans.push(
        chat(
          open,
          e.t,
          {
            ...(e.status !== null ? { 'error.type': String(e.status) } : { 'error.type': 'request_failed' }),
            'parallax.retry.delay_ms': e.delayMs,
          },
          e.message,
        ),
      );
      open = null;
    } else if (e.type === 'tool-started') {
      tools.set(e.callId, { started: e, searches: [], samplings: [], waitMs: 0 });
      toolOrder.push(e.callId);
    } else if (e.type === 'code-run') {
      const t = tools.get(e.callId);
      if (t) t.code = e;
    } else if (e.type === 'tool-search') tools.get(e.callId)?.searches.push(e);
    else if (e.type === 'history-summary') spans.push(extra(e, 'history-summary'));
    else if (e.type === 'sampling') {
      // Asked for by an MCP server during one of its tools: a child of that call's span.
      const t = tools.get(e.callId);
      if (t) t.samplings.push(e);
      else spans.push(extra(e, 'mcp-sampling'));
    } else if (e.type === 'approval-resolved') {
      const t = tools.get(e.callId);
      if (t) t.waitMs += e.waitedMs;
    } else if (e.type === 'tool-finished') {
      const t = tools.get(e.callId);
      if (!t) continue;
      spans.push(
        toolSpan(
          comparisonId,
          run.runId,
          t0,
          t.started,
          e,
          t.code,
          t.searches,
          t.waitMs,
          t.samplings.map((x) => extra(x, 'mcp-sampling')),
        ),
      );
      tools.delete(e.callId);
    }
  }
  // What never ended: the request or calls in flight when the run stopped.
  const why =
    run.summary.error ??
    (run.summary.status === 'running' || run.summary.status === 'interrupted'
      ? 'The run stopped before this ended.'
      : null);
  if (open) spans.push(chat(open, runEnd - t0, { 'error.type': 'unfinished' }, why ?? 'No reply was recorded.'));
  for (const callId of toolOrder) {
    const t = tools.get(callId);
    if (t)
      spans.push(
        toolSpan(
          comparisonId,
          run.runId,
          t0,
          t.started,
          null,
          t.code,
          t.searches,
          t.waitMs,
          t.samplings.map((x) => extra(x, 'mcp-sampling')),
          runEnd - t0,
          why,
        ),
      );
  }
  return spans.sort((a, b) => a.startMs - b.startMs);
}

function toolSpan(
  comparisonId: string,
  runId: string,
  t0: number,
  started: StepEvent & { type: 'tool-started' },
  finished: (StepEvent & { type: 'tool-finished' }) | null,
  code: CodeRunEvent | undefined,
  searches: readonly ToolSearchEvent[],
  waitMs: number,
  samplings: readonly PlannedSpan[],
  unfinishedAt = 0,
  unfinishedWhy: string | null = null,
): PlannedSpan {
  const startMs = t0 + started.t;
  const endMs = t0 + Math.max(started.t, finished?.t ?? unfinishedAt);
  const error = finished ? finished.error : (unfinishedWhy ?? 'The call never finished.');
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    [LANGFUSE_TYPE]: 'tool',
    'gen_ai.tool.name': started.name,
    'gen_ai.tool.call.id': started.callId,
    'gen_ai.tool.type': 'function',
    'parallax.step': started.step,
    ...(finished
      ? {
          'parallax.tool.duration_ms': finished.durationMs,
          'parallax.tool.output_chars': finished.rawSize,
          'parallax.tool.returned_chars': finished.output.length,
          'parallax.tool.truncated': finished.truncated,
          ...(finished.cancelled ? { 'parallax.tool.cancelled': true } : {}),
        }
      : {}),
    ...(error !== null ? { 'error.type': finished ? 'tool_error' : 'unfinished' } : {}),
    ...(waitMs > 0 ? { 'parallax.approval_wait_ms': waitMs } : {}),
    ...(searches.length
      ? {
          'parallax.tool_search.queries': searches.map((s) => s.query),
          'parallax.tool_search.hits': searches.reduce((n, s) => n + s.hits.length, 0),
        }
      : {}),
    ...(code
      ? {
          'parallax.program.code_chars': code.code.length,
          'parallax.program.tool_calls': code.toolCalls.length,
          'parallax.program.tool_bytes': code.toolBytes,
          'parallax.program.printed_bytes': code.printedBytes,
          'parallax.program.duration_ms': code.durationMs,
          ...(code.limitHit ? { 'parallax.program.limit_hit': code.limitHit } : {}),
          ...(code.error ? { 'parallax.program.error': code.error.message } : {}),
          // The record keeps each inner call's duration, not its start: children are laid end to end from the start.
          ...(code.toolCalls.length
            ? { 'parallax.program.call_times': 'durations as recorded, starts laid end to end' }
            : {}),
        }
      : {}),
  };
  let cursor = startMs;
  const children: PlannedSpan[] = (code?.toolCalls ?? []).map((call, i) => {
    const s = Math.min(cursor, endMs);
    const e = Math.min(s + call.durationMs, endMs);
    cursor = e;
    return {
      spanId: spanIdOf(comparisonId, `inner ${runId} ${started.callId} ${started.seq} ${i}`),
      name: `execute_tool ${call.name}`,
      kind: 'internal',
      startMs: s,
      endMs: e,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        [LANGFUSE_TYPE]: 'tool',
        'gen_ai.tool.name': call.name,
        'gen_ai.tool.type': 'function',
        'parallax.program.call_index': i + 1,
        'parallax.program.call_id': started.callId,
        'parallax.tool.duration_ms': call.durationMs,
        'parallax.tool.result_bytes': call.resultBytes,
        ...(call.error !== null ? { 'error.type': 'tool_error' } : {}),
      },
      error: call.error,
      children: [],
    };
  });
  // A sampling request lies inside the call that asked for it (clamped: its start is derived from its latency).
  for (const x of samplings)
    children.push({
      ...x,
      startMs: Math.min(Math.max(x.startMs, startMs), endMs),
      endMs: Math.min(Math.max(x.endMs, startMs), endMs),
    });
  return {
    spanId: spanIdOf(comparisonId, `tool ${runId} ${started.callId} ${started.seq}`),
    name: `execute_tool ${started.name}`,
    kind: 'internal',
    startMs,
    endMs,
    attributes,
    error,
    children,
  };
}
