import { z } from 'zod';
import { htmlTitle, htmlToText } from './html-text.js';
import { formatBytes, limitsOf } from './limits.js';
import { defineTool, ToolError } from './tool.js';

export interface FetchResult {
  readonly status: number;
  readonly contentType: string;
  /** The HTML <title>; '' when the page has none or is not HTML. */
  readonly title: string;
  readonly text: string;
}

const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(json|xml))/i;

export const fetchUrl = defineTool({
  name: 'fetch_url',
  description:
    'Download a web page (http or https GET) and return an object {status, contentType, title, text}: the ' +
    'HTTP status (errors like 404 are returned, not thrown), the page title, and its readable text without ' +
    'HTML tags, scripts or styles. Text is capped; it is an object, not the raw HTML string.',
  args: z.object({
    url: z.string().describe('Absolute http:// or https:// URL, e.g. "https://example.com".'),
  }),
  returns: '{status: number, contentType: string, title: string, text: string}',
  async run({ url }, ctx): Promise<FetchResult> {
    const target = parseHttpUrl(url);
    const limits = limitsOf(ctx);
    const timeout = AbortSignal.timeout(limits.fetchTimeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const failed = (error: unknown): ToolError => {
      if (ctx.signal.aborted) return new ToolError('fetch_url was cancelled.');
      if (timeout.aborted) {
        return new ToolError(`fetch_url timed out after ${limits.fetchTimeoutMs / 1000} s waiting for ${target.href}. The site may be slow or down; try again or another URL.`);
      }
      return new ToolError(`fetch_url could not reach ${target.href}: ${networkReason(error)}. Check the URL (scheme, host, port) or try another page.`);
    };

    let response: Response;
    try {
      response = await fetch(target, { signal, redirect: 'follow', headers: { 'user-agent': 'Parallax/0.1 (agent tool)', accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8' } });
    } catch (error) {
      throw failed(error);
    }
    const contentType = response.headers.get('content-type') ?? '';
    let body: { bytes: Uint8Array; cut: boolean };
    try {
      body = await readCapped(response, limits.fetchMaxBytes);
    } catch (error) {
      throw failed(error);
    }

    const mime = contentType.split(';')[0].trim().toLowerCase();
    const looksHtml = mime.includes('html') || (mime === '' && /^\s*<(!doctype html|html)/i.test(decode(body.bytes.subarray(0, 512), '')));
    if (!looksHtml && mime !== '' && !TEXTUAL.test(mime)) {
      const size = body.cut ? `more than ${formatBytes(limits.fetchMaxBytes)}` : formatBytes(body.bytes.length);
      return { status: response.status, contentType, title: '', text: `[binary content (${mime}), ${size}, not shown]` };
    }
    const raw = decode(body.bytes, contentType);
    const title = looksHtml ? htmlTitle(raw) : '';
    let text = looksHtml ? htmlToText(raw) : raw.trim();
    const notes: string[] = [];
    if (text.length > limits.fetchTextChars) {
      notes.push(`text truncated: first ${limits.fetchTextChars} of ${text.length} characters shown`);
      text = text.slice(0, limits.fetchTextChars);
    }
    if (body.cut) notes.push(`page truncated: only the first ${formatBytes(limits.fetchMaxBytes)} were read`);
    if (notes.length > 0) text += `\n[${notes.join('; ')}]`;
    return { status: response.status, contentType, title, text };
  },
});

function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new ToolError(`${JSON.stringify(url)} is not a valid URL. Give an absolute http:// or https:// URL, e.g. "https://example.com".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ToolError(
      `fetch_url only downloads http:// and https:// URLs, not ${parsed.protocol}. ` +
        'To read a file in the workspace use read_file instead.',
    );
  }
  return parsed;
}

/** Reads the body up to `cap` bytes and stops the download there. */
async function readCapped(response: Response, cap: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = cap - size;
    if (value.length >= room) {
      chunks.push(value.subarray(0, room));
      size += room;
      cut = value.length > room;
      if (!cut) {
        // Exactly at the cap: only a further chunk would prove the body is longer.
        const next = await reader.read();
        cut = !next.done;
      }
      if (cut) await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, cut };
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (nothing is listening on that host and port)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be resolved';
  if (code === 'ECONNRESET') return 'the connection was reset by the server';
  if (code && cause?.message) return `${cause.message} (${code})`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
