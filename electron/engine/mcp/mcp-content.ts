/**
 * What an MCP server sends beside a result's text, checked before it is kept (a server is not trusted): each
 * content block's kind, MIME type, size and content annotations (audience, priority) for tool-finished, and
 * its progress reports, thinned to what a timeline can show.
 */
import type { McpContentRecord } from '../../../shared/step-event.js';
import type { ToolProgress } from '../tools/tool.js';

/** More blocks than this are counted in the last record only. */
const MAX_RECORDED_BLOCKS = 50;
/** At most one progress event per call in this many ms (the last report is always kept). */
export const PROGRESS_EVERY_MS = 250;
/** Progress events per call; a server that reports more has the rest dropped. */
export const MAX_PROGRESS_EVENTS = 200;

const str = (v: unknown, max = 500): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined;

/** Decoded size of base64 data, for describing what is not shown. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  return Math.max(0, Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0));
}

function annotationsOf(raw: unknown): Pick<McpContentRecord, 'audience' | 'priority' | 'lastModified'> {
  if (typeof raw !== 'object' || raw === null) return {};
  const a = raw as Record<string, unknown>;
  const audience = Array.isArray(a.audience)
    ? [...new Set(a.audience.filter((x): x is 'user' | 'assistant' => x === 'user' || x === 'assistant'))]
    : [];
  const priority =
    typeof a.priority === 'number' && Number.isFinite(a.priority) && a.priority >= 0 && a.priority <= 1
      ? a.priority
      : undefined;
  const lastModified = str(a.lastModified, 40);
  return {
    ...(audience.length ? { audience } : {}),
    ...(priority !== undefined ? { priority } : {}),
    ...(lastModified ? { lastModified } : {}),
  };
}

/** One record per block (kind, MIME type, size, URI, annotations); none when the result is plain text without annotations. */
export function contentRecords(content: unknown): McpContentRecord[] {
  if (!Array.isArray(content)) return [];
  const records: McpContentRecord[] = [];
  for (const raw of content.slice(0, MAX_RECORDED_BLOCKS)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const b = raw as Record<string, unknown>;
    const type = str(b.type, 40) ?? 'unknown';
    const resource =
      typeof b.resource === 'object' && b.resource !== null ? (b.resource as Record<string, unknown>) : null;
    const mimeType = str(b.mimeType, 100) ?? str(resource?.mimeType, 100);
    const uri = str(b.uri, 500) ?? str(resource?.uri, 500);
    const size =
      typeof b.text === 'string'
        ? b.text.length
        : typeof b.data === 'string'
          ? base64Bytes(b.data)
          : typeof resource?.text === 'string'
            ? resource.text.length
            : typeof resource?.blob === 'string'
              ? base64Bytes(resource.blob)
              : typeof b.size === 'number' && Number.isSafeInteger(b.size) && b.size >= 0
                ? b.size
                : undefined;
    // A resource's own annotations count when the block has none of its own.
    const notes = annotationsOf(b.annotations ?? resource?.annotations);
    records.push({
      type,
      ...(mimeType ? { mimeType } : {}),
      ...(size !== undefined ? { size } : {}),
      ...(uri ? { uri } : {}),
      ...notes,
    });
  }
  // Plain text with nothing said about it adds nothing to what the output already shows.
  const telling = records.some((r) => r.type !== 'text' || r.audience || r.priority !== undefined || r.lastModified);
  return telling ? records : [];
}

// Control characters would move a terminal's cursor; a progress message is one short line.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const PROGRESS_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;

/** A progress notification's fields, or null when they are not numbers a person can read. */
export function cleanProgress(raw: { progress?: unknown; total?: unknown; message?: unknown }): ToolProgress | null {
  if (typeof raw.progress !== 'number' || !Number.isFinite(raw.progress)) return null;
  const total = typeof raw.total === 'number' && Number.isFinite(raw.total) && raw.total > 0 ? raw.total : undefined;
  const message = typeof raw.message === 'string' ? raw.message.replace(PROGRESS_UNSAFE, ' ').trim().slice(0, 200) : '';
  return { progress: raw.progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) };
}

/** Passes on at most one report per PROGRESS_EVERY_MS and MAX_PROGRESS_EVENTS in all; `flush` sends a held last report. */
export function progressThrottle(
  send: (p: ToolProgress) => void,
  now: () => number = () => performance.now(),
): { report(p: ToolProgress): void; flush(): void } {
  let last = -Infinity;
  let sent = 0;
  let held: ToolProgress | null = null;
  const emit = (p: ToolProgress): void => {
    if (sent >= MAX_PROGRESS_EVENTS) return;
    sent += 1;
    last = now();
    held = null;
    send(p);
  };
  return {
    report(p) {
      if (now() - last >= PROGRESS_EVERY_MS) emit(p);
      else held = p;
    },
    flush() {
      if (held) emit(held);
    },
  };
}
