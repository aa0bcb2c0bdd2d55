/**
 * Test stand-in for an OTLP HTTP collector on loopback: records every request (path, headers, decoded body) and
 * answers as told (status, body, or not at all). `readSpans` flattens an OTLP/JSON ExportTraceServiceRequest into
 * spans with plain attribute values, decoded by the OTLP/JSON rules (AnyValue, int64 as number or string).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface OtlpReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** What the next requests get: a status and body, or 'hang' (never answers). */
  answer: { status: number; body: string } | 'hang';
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const receiver = {
    url: '',
    requests,
    answer: { status: 200, body: '{}' } as OtlpReceiver['answer'],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      if (String(req.headers['content-type']).startsWith('application/json')) body = JSON.parse(text);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const a = receiver.answer;
      if (a === 'hang') return;
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export type AttrValue = string | number | boolean | AttrValue[] | null;

export interface FlatSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  readonly kind: number;
  /** Nanoseconds since the epoch. */
  readonly start: bigint;
  readonly end: bigint;
  readonly attrs: Record<string, AttrValue>;
  readonly status: { readonly code: number; readonly message?: string };
}

function anyValue(v: Record<string, unknown>): AttrValue {
  if ('stringValue' in v) return v.stringValue as string;
  if ('boolValue' in v) return v.boolValue as boolean;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return ((v.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(anyValue);
  return null;
}

export function readSpans(body: unknown): { resource: Record<string, AttrValue>; spans: FlatSpan[] } {
  const rs = (
    body as {
      resourceSpans: {
        resource: { attributes: { key: string; value: Record<string, unknown> }[] };
        scopeSpans: { spans: Record<string, unknown>[] }[];
      }[];
    }
  ).resourceSpans;
  const attrsOf = (list: { key: string; value: Record<string, unknown> }[] = []) =>
    Object.fromEntries(list.map((a) => [a.key, anyValue(a.value)]));
  const spans: FlatSpan[] = [];
  for (const r of rs) {
    for (const ss of r.scopeSpans) {
      for (const s of ss.spans) {
        spans.push({
          traceId: s.traceId as string,
          spanId: s.spanId as string,
          parentSpanId: (s.parentSpanId as string | undefined) || null,
          name: s.name as string,
          kind: s.kind as number,
          start: BigInt(s.startTimeUnixNano as string),
          end: BigInt(s.endTimeUnixNano as string),
          attrs: attrsOf(s.attributes as { key: string; value: Record<string, unknown> }[]),
          status: (s.status ?? { code: 0 }) as FlatSpan['status'],
        });
      }
    }
  }
  return { resource: attrsOf(rs[0]?.resource.attributes), spans };
}
