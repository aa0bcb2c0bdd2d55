/**
 * provider:models / provider:test — GET {baseUrl}/models through the openai SDK with a short timeout, and a
 * reason the settings screen can act on: unreachable, bad-key (401/403), unknown-model, bad-url.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { ConnectionResult, ProviderCheck } from '../../shared/ipc-contract.js';
import { protocolOfInfo } from '../../shared/providers.js';
import type { ProviderInfo } from '../../shared/run-spec.js';
import { authHeaders } from './preflight.js';
import type { EngineServices } from './engine-services.js';
import { KeyEnvRegistry } from './key-binding.js';
import { checkBaseUrl, resolveProvider, type GetApiKey, type KeyEnvPolicy } from './prepare.js';

export const CHECK_TIMEOUT_MS = 5000;

export async function checkProvider(
  check: ProviderCheck,
  wantModel: boolean,
  services: EngineServices,
  getApiKey: GetApiKey,
  keyEnv: KeyEnvPolicy = new KeyEnvRegistry(),
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<ConnectionResult> {
  let info: ProviderInfo;
  let apiKeyEnv: string | null;
  try {
    if (check.name !== 'simulated' && check.baseUrl) checkBaseUrl(check.baseUrl);
    // The model name is not needed to list models (it is checked against the list below); a placeholder keeps
    // resolveProvider's checks quiet (the simulated model's own placeholder: its default name).
    const placeholder = check.name === 'simulated' ? 'sim' : check.model || '?';
    const resolved = await resolveProvider(
      {
        name: check.name,
        baseUrl: check.baseUrl,
        model: placeholder,
        apiKeyEnv: check.apiKeyEnv ?? null,
        protocol: check.protocol ?? null,
      },
      services,
      keyEnv,
    );
    info = resolved.info;
    apiKeyEnv = resolved.apiKeyEnv;
  } catch (err) {
    return { ok: false, reason: 'bad-url', detail: (err as Error).message };
  }
  const key = await getApiKey(info, apiKeyEnv).catch(() => null);
  const anthropic = protocolOfInfo(info) === 'anthropic';
  // Anthropic takes the key as x-api-key (with its API version), not as a bearer token; its list is paged (max 1000).
  const client = new OpenAI({
    baseURL: info.baseUrl,
    apiKey: key ?? 'no-key',
    maxRetries: 0,
    timeout: timeoutMs,
    ...(anthropic ? { defaultHeaders: { ...authHeaders(info, key), authorization: null } } : {}),
  });
  let models: string[];
  try {
    const { data: page, response } = await client.models
      .list(anthropic ? { query: { limit: 1000 } } : undefined)
      .withResponse();
    const type = response.headers.get('content-type') ?? '';
    const data = (page as unknown as { data?: unknown }).data;
    if (!type.includes('json') || !Array.isArray(data)) {
      return {
        ok: false,
        reason: 'bad-url',
        detail: `${info.baseUrl}/models answered${type ? ` with ${type.split(';')[0]}` : ''}, not an OpenAI-style model list. Check the base URL: it usually ends with /v1.`,
      };
    }
    models = data.map((m: { id?: unknown }) => String(m?.id ?? '')).filter(Boolean);
  } catch (err) {
    return describeFailure(err, info, key !== null, timeoutMs);
  }
  models.sort();
  const where = `${info.name} at ${info.baseUrl}`;
  // An alias (claude-haiku-4-5) is listed under its dated name (claude-haiku-4-5-20251001).
  const listed = (m: string) =>
    models.includes(m) || models.some((id) => id.startsWith(`${m}-`) && /^\d{8}$/.test(id.slice(m.length + 1)));
  if (wantModel && check.model && models.length > 0 && !listed(check.model)) {
    const some = models.slice(0, 8).join(', ');
    return {
      ok: false,
      reason: 'unknown-model',
      detail: `${where} does not list model "${check.model}". It lists ${models.length}: ${some}${models.length > 8 ? ', …' : ''}. Pick one of those.`,
    };
  }
  const detail =
    wantModel && check.model && models.length > 0
      ? `${where} answered and lists model "${check.model}".`
      : models.length === 0
        ? `${where} answered but lists no models, so the model name could not be checked.`
        : `${where} answered with ${models.length} model${models.length === 1 ? '' : 's'}.`;
  return { ok: true, models, detail };
}

function describeFailure(err: unknown, info: ProviderInfo, hadKey: boolean, timeoutMs: number): ConnectionResult {
  const where = `${info.name} at ${info.baseUrl}`;
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? err.cause.message : err.message;
    const timedOut = /timed? ?out/i.test(err.message) || err.constructor.name === 'APIConnectionTimeoutError';
    return {
      ok: false,
      reason: 'unreachable',
      detail: timedOut
        ? `${where} did not answer within ${timeoutMs / 1000} s. Check that the server is running and the URL is right.`
        : `Could not reach ${where} (${cause}). Check the base URL and that the server is running.`,
    };
  }
  if (err instanceof APIError) {
    const status = err.status ?? 0;
    if (status === 401 || status === 403) {
      return {
        ok: false,
        reason: 'bad-key',
        detail: hadKey
          ? `${where} rejected the API key (${status}). Check the key set for ${info.name}.`
          : `${where} needs an API key (${status}). Enter it under Model in the composer, or set the provider's key variable for the CLI.`,
      };
    }
    if (status === 404 || status === 405) {
      return {
        ok: false,
        reason: 'bad-url',
        detail: `${where} has no /models endpoint (${status}). Check that the base URL ends with the API path, usually /v1.`,
      };
    }
    return { ok: false, reason: 'error', detail: `${where} answered ${status}: ${err.message}` };
  }
  return { ok: false, reason: 'error', detail: `Checking ${where} failed: ${(err as Error)?.message ?? String(err)}` };
}
