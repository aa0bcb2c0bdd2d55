/**
 * Before any worker starts: does the provider answer at all, and does it refuse the key? One GET of
 * `<base URL>/models` with the key (Anthropic: GET /v1/models with x-api-key and anthropic-version), bounded by a short deadline. An unreachable host (refused, unknown name, TLS)
 * or a refused key ends the start at once, in the words the runs would have used (engine/provider/errors.ts,
 * loaded only on a failure so a good start never loads the openai SDK). Anything else — slow, 404 (no
 * /models), a server error — lets the comparison start: its requests say more, and retry.
 */
import { ANTHROPIC_VERSION, protocolOfInfo } from '../../shared/providers.js';
import type { ProviderInfo } from '../../shared/run-spec.js';
import { fieldToFix } from '../../shared/start-errors.js';

/** The key as the provider's protocol sends it: a bearer token, or Anthropic's x-api-key with its API version. */
export function authHeaders(info: ProviderInfo, apiKey: string | null): Record<string, string> {
  if (protocolOfInfo(info) === 'anthropic')
    return { ...(apiKey ? { 'x-api-key': apiKey } : {}), 'anthropic-version': ANTHROPIC_VERSION };
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

export const PREFLIGHT_TIMEOUT_MS = 1500;

export async function preflight(
  info: ProviderInfo,
  apiKey: string | null,
  timeoutMs = PREFLIGHT_TIMEOUT_MS,
): Promise<void> {
  if (info.simulated) return;
  const url = `${info.baseUrl.replace(/\/+$/, '')}/models`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: authHeaders(info, apiKey),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (err) {
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return;
    const { networkMessage, socketCause } = await import('../engine/provider/errors.js');
    const cause = socketCause(err);
    if (cause)
      throw new Error(
        `${networkMessage(cause.code, cause.text, info).message} Nothing was started. ${fieldToFix('baseUrl')}`,
      );
    // No socket was opened at all (fetch refused the URL itself): the runs' requests would fail the same way.
    const reason =
      err instanceof Error && err.cause instanceof Error
        ? err.cause.message
        : err instanceof Error
          ? err.message
          : String(err);
    const port = new URL(url).port;
    const why =
      reason === 'bad port'
        ? `port ${port} is one that HTTP clients refuse to connect to (the fetch standard's blocked ports, such as 1, 9, 25 or 6000). Run the server on another port`
        : `${reason}. Check the base URL`;
    throw new Error(`Could not reach ${info.baseUrl}: ${why}. Nothing was started. ${fieldToFix('baseUrl')}`);
  }
  if (res.status !== 401 && res.status !== 403) {
    await res.body?.cancel().catch(() => undefined);
    return;
  }
  const body = await res.text().catch(() => '');
  const { classifyStatus, detailOf, errorCodesOf } = await import('../engine/provider/errors.js');
  const error = classifyStatus(
    res.status,
    detailOf(body, res.statusText || 'no body'),
    info,
    res.headers,
    errorCodesOf(body),
  );
  // A 403 that is not about the key (a model the key lacks, a region block) is for the run to report.
  if (error.kind !== 'key') return;
  throw new Error(`${error.message} Nothing was started. ${fieldToFix('apiKey')}`);
}
