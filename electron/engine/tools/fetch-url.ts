import { z } from 'zod';
import { ComputeError, computeThread } from './compute/compute-thread.js';
import { stripTags } from './html-text.js';
import { httpGet, RefusedUrlError, type GetResult } from './http-get.js';
import { formatBytes, limitsOf } from './limits.js';
import { BlockedAddressError } from './net-guard.js';
import { runToolState } from './run-state.js';
import { defineTool, ToolError, type ToolContext } from './tool.js';

export interface FetchResult {
  readonly status: number;
  readonly contentType: string;
  /** The HTML <title>; '' when the page has none or is not HTML. */
  readonly title: string;
  readonly text: string;
}

const TEXTUAL =
  /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(json|xml))/i;

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
      if (error instanceof BlockedAddressError) {
        return new ToolError(
          `fetch_url refuses ${target.href}: ${error.message}. fetch_url reaches public web addresses only, not this computer or a private network.`,
        );
      }
      if (error instanceof RefusedUrlError) return new ToolError(error.message);
      if (ctx.signal.aborted) return new ToolError('fetch_url was cancelled.');
      if (timeout.aborted) {
        return new ToolError(
          `fetch_url timed out after ${limits.fetchTimeoutMs / 1000} s waiting for ${target.href}. The site may be slow or down; try again or another URL.`,
        );
      }
      return new ToolError(
        `fetch_url could not reach ${target.href}: ${networkReason(error)}. Check the URL (scheme, host, port) or try another page.`,
      );
    };

    let response: GetResult;
    try {
      response = await httpGet(target, {
        signal,
        maxBytes: limits.fetchMaxBytes,
        maxRedirects: MAX_REDIRECTS,
        localOrigins: runToolState(ctx).localOrigins,
        headers: {
          'user-agent': 'Parallax/0.1 (agent tool)',
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8',
        },
      });
    } catch (error) {
      throw failed(error);
    }
    const { contentType, body: bytes, cut } = response;
    const mime = contentType.split(';')[0].trim().toLowerCase();
    const looksHtml =
      mime.includes('html') || (mime === '' && /^\s*<(!doctype html|html)/i.test(decode(bytes.subarray(0, 512), '')));
    if (!looksHtml && mime !== '' && !TEXTUAL.test(mime)) {
      const size = cut ? `more than ${formatBytes(limits.fetchMaxBytes)}` : formatBytes(bytes.length);
      return {
        status: response.status,
        contentType,
        title: '',
        text: `[binary content (${mime}), ${size}, not shown]`,
      };
    }
    const raw = decode(bytes, contentType);
    const notes: string[] = [];
    let title = '';
    let text = raw.trim();
    if (looksHtml) {
      const page = await pageText(raw, ctx, limits.htmlTimeoutMs);
      ({ title, text } = page);
      if (page.note) notes.push(page.note);
    }
    if (text.length > limits.fetchTextChars) {
      notes.push(`text truncated: first ${limits.fetchTextChars} of ${text.length} characters shown`);
      text = text.slice(0, limits.fetchTextChars);
    }
    if (cut) notes.push(`page truncated: only the first ${formatBytes(limits.fetchMaxBytes)} were read`);
    if (notes.length > 0) text += `\n[${notes.join('; ')}]`;
    return { status: response.status, contentType, title, text };
  },
});

/** Redirects followed before giving up. */
const MAX_REDIRECTS = 5;

/**
 * Title and text of an HTML page, converted in the compute thread under a deadline. A page that is nested too
 * deeply, too slow or too big to convert there comes back with its tags stripped by a linear scan instead.
 */
async function pageText(
  html: string,
  ctx: ToolContext,
  timeoutMs: number,
): Promise<{ title: string; text: string; note?: string }> {
  try {
    return await computeThread().run('html', { html }, { signal: ctx.signal, timeoutMs });
  } catch (error) {
    if (!(error instanceof ComputeError)) throw error;
    if (error.kind === 'cancel') throw new ToolError('fetch_url was cancelled.');
    const why = error.kind === 'stack' ? 'it is nested too deeply' : error.message;
    const plain = stripTags(html);
    return {
      title: plain.title,
      text: plain.text,
      note: `the page could not be converted normally (${why}); its text is shown with the tags removed`,
    };
  }
}

function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new ToolError(
      `${JSON.stringify(url)} is not a valid URL. Give an absolute http:// or https:// URL, e.g. "https://example.com".`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ToolError(
      `fetch_url only downloads http:// and https:// URLs, not ${parsed.protocol}. ` +
        'To read a file in the workspace use read_file instead.',
    );
  }
  return parsed;
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
  // Node's http reports the error itself; fetch-style errors carry it as the cause.
  const own = error as { code?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  const cause = own?.cause ?? (own?.code ? own : undefined);
  const code = cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (nothing is listening on that host and port)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be resolved';
  if (code === 'ECONNRESET') return 'the connection was reset by the server';
  if (code && cause?.message) return `${cause.message} (${code})`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
