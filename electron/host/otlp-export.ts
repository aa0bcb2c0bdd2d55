/**
 * Sends a finished comparison's trace (the OTLP/JSON report's body) to an OTLP HTTP endpoint the user names, with
 * the headers they give (often a secret: an Authorization or API-key header). Header values never appear in a
 * message, a log or a file written here. A failed send loses nothing: the comparison stays stored and can be sent
 * again (`parallax report <id> --otlp-endpoint URL`, or the app's export menu).
 */
import type { OtlpSendResult, StoredComparison } from '../../shared/ipc-contract.js';
import { otlpTracesUrl, type OtlpTarget } from './otlp-target.js';
import { prepareReport } from './reports/report-data.js';

export type { OtlpSendResult, OtlpTarget };

const DEFAULT_TIMEOUT_MS = 15_000;

function reachError(url: string, err: unknown, timeoutMs: number): Error {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { name?: string }).name;
  if (code === 'TimeoutError' || code === 'AbortError')
    return new Error(
      `The OTLP endpoint ${url} did not answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}. Check the URL and that the collector is up, then send again.`,
    );
  const why =
    code === 'ECONNREFUSED'
      ? 'the connection was refused: nothing listens there'
      : code === 'ENOTFOUND'
        ? 'its host name is not known'
        : (cause?.message ?? (err instanceof Error ? err.message : String(err)));
  return new Error(
    `Could not reach the OTLP endpoint ${url}: ${why}. Check the URL (an OTLP HTTP receiver, usually port 4318) and that the collector is running, then send again.`,
  );
}

function statusError(url: string, status: number, body: string): Error {
  const said = body.replace(/\s+/g, ' ').trim().slice(0, 300);
  const hint =
    status === 401 || status === 403
      ? 'The receiver refused the credentials: check the headers (e.g. Authorization).'
      : status === 404
        ? "Nothing takes traces at that path: give the collector's base URL (…/v1/traces is added) or its full traces URL."
        : status === 413
          ? 'The trace is larger than the receiver accepts: raise its request size limit.'
          : status === 415
            ? 'The receiver does not take OTLP/JSON: use an OTLP HTTP receiver that accepts application/json.'
            : status >= 500
              ? 'The receiver failed: try again later.'
              : 'Check the endpoint and headers.';
  return new Error(`The OTLP endpoint ${url} answered ${status}${said ? ` (${said})` : ''}. ${hint}`);
}

/** What an OTLP partial success says was rejected, or null. */
function rejectedOf(body: string): string | null {
  try {
    const r = (JSON.parse(body) as { partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } })
      .partialSuccess;
    const n = Number(r?.rejectedSpans ?? 0);
    return n > 0
      ? `The receiver rejected ${n} span${n === 1 ? '' : 's'}${r?.errorMessage ? `: ${r.errorMessage}` : ''}.`
      : null;
  } catch {
    return null;
  }
}

/**
 * `quoteReply`: whether an error may quote what the receiver answered. Not for a web host's page: the page names
 * the URL, and the host could otherwise be made to read an internal service's reply back to it.
 */
export async function sendOtlp(
  stored: StoredComparison,
  target: OtlpTarget,
  opts: { readonly quoteReply?: boolean } = {},
): Promise<OtlpSendResult> {
  const url = otlpTracesUrl(target.endpoint);
  const timeoutMs = target.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { otlpTrace } = await import('./reports/otlp-report.js');
  const { body, spanCount } = otlpTrace(prepareReport(stored));
  // The body is OTLP/JSON whatever the user's headers say (a Content-Type among them is replaced, not doubled).
  const headers = new Headers();
  for (const [name, value] of Object.entries(target.headers ?? {})) {
    try {
      headers.set(name, value);
    } catch {
      // fetch's own message would quote the value, which may be a secret.
      throw new Error(
        `The OTLP header "${name}" has a value HTTP cannot carry (only printable ASCII/Latin-1 on one line). Fix it and send again.`,
      );
    }
  }
  headers.set('content-type', 'application/json');
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: body as Uint8Array<ArrayBuffer>, // TextEncoder's output: never a SharedArrayBuffer
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    throw reachError(url, err, timeoutMs);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw statusError(url, res.status, opts.quoteReply === false ? '' : text);
  return { url, spans: spanCount, bytes: body.byteLength, status: res.status, rejected: rejectedOf(text) };
}
