/**
 * The OTLP/JSON report: the comparison's trace (planned in otlp-spans.ts) built as OpenTelemetry SDK spans with the
 * recorded times and ids derived from the comparison, then serialized by @opentelemetry/otlp-transformer into the
 * body an OTLP HTTP receiver takes at /v1/traces (ExportTraceServiceRequest). The OpenTelemetry packages are
 * loaded on the first OTLP export only, so other reports and the host's start do not load them.
 */
import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type * as Resources from '@opentelemetry/resources';
import type * as Transformer from '@opentelemetry/otlp-transformer';
import type { ReportData } from './report-data.js';
import { planTrace, type PlannedSpan } from './otlp-spans.js';

interface Otel {
  readonly api: typeof Api;
  readonly sdk: typeof SdkTrace;
  readonly resources: typeof Resources;
  readonly transformer: typeof Transformer;
}

let otel: Otel | null = null;

function loadOtel(): Otel {
  if (otel) return otel;
  // Synchronous, because reports are built synchronously; the CommonJS builds of the same packages.
  const require = createRequire(import.meta.url);
  otel = {
    api: require('@opentelemetry/api') as typeof Api,
    sdk: require('@opentelemetry/sdk-trace') as typeof SdkTrace,
    resources: require('@opentelemetry/resources') as typeof Resources,
    transformer: require('@opentelemetry/otlp-transformer') as typeof Transformer,
  };
  return otel;
}

/** Epoch ms (fractions kept to the microsecond) as OpenTelemetry's [seconds, nanoseconds]. */
function hrTime(ms: number): [number, number] {
  const micros = Math.round(ms * 1000);
  return [Math.floor(micros / 1e6), (micros % 1e6) * 1000];
}

/** Hands the SDK the planned ids, so each span gets the id derived for it (see traceIdOf in otlp-spans.ts). */
class PlannedIds {
  traceId = '';
  spanId = '';
  generateTraceId = (): string => this.traceId;
  generateSpanId = (): string => this.spanId;
}

/** The trace's spans as the SDK finished them, each parent before its children. */
export function traceSpans(data: ReportData): SdkTrace.ReadableSpan[] {
  const { api, sdk, resources } = loadOtel();
  const plan = planTrace(data);
  const ids = new PlannedIds();
  ids.traceId = plan.traceId;
  const exporter = new sdk.InMemorySpanExporter();
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': 'parallax' }),
    idGenerator: ids,
    // Explicit limits, so no OTEL_* environment variable changes what a report holds.
    spanLimits: {
      attributeCountLimit: 1000,
      attributeValueLengthLimit: Infinity,
      eventCountLimit: 1000,
      linkCountLimit: 0,
    },
    spanProcessors: [new sdk.SimpleSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('parallax');
  const start = (span: PlannedSpan, parent: Api.Context): void => {
    ids.spanId = span.spanId;
    const s = tracer.startSpan(
      span.name,
      {
        kind: span.kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
        startTime: hrTime(span.startMs),
        attributes: span.attributes as Api.Attributes,
      },
      parent,
    );
    if (span.error !== null) s.setStatus({ code: api.SpanStatusCode.ERROR, message: span.error });
    const ctx = api.trace.setSpan(parent, s);
    for (const child of span.children) start(child, ctx);
    s.end(hrTime(span.endMs));
  };
  start(plan.root, api.ROOT_CONTEXT);
  // The SDK finishes children first; the file lists spans as the plan reads: each parent, then its children.
  const byId = new Map(exporter.getFinishedSpans().map((s) => [s.spanContext().spanId, s]));
  const ordered: SdkTrace.ReadableSpan[] = [];
  const walk = (span: PlannedSpan): void => {
    ordered.push(byId.get(span.spanId)!);
    span.children.forEach(walk);
  };
  walk(plan.root);
  return ordered;
}

/** The OTLP/JSON request body (ExportTraceServiceRequest) of the comparison's trace, and its number of spans. */
export function otlpTrace(data: ReportData): { readonly body: Uint8Array; readonly spanCount: number } {
  const spans = traceSpans(data);
  return { body: loadOtel().transformer.JsonTraceSerializer.serializeRequest(spans)!, spanCount: spans.length };
}

/** The report file: the same body, indented. */
export function renderOtlp(data: ReportData): string {
  return `${JSON.stringify(JSON.parse(new TextDecoder().decode(otlpTrace(data).body)), null, 2)}\n`;
}
