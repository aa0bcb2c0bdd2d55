/**
 * Keys are bound to the base URL they belong to, so whoever drives the invoke API (the page) cannot send a
 * stored key somewhere else:
 * - a preset's key (stored, or in its environment variable such as OPENAI_API_KEY) goes only to the preset's
 *   own base URL;
 * - the custom provider's stored key goes only to the base URL it was stored for;
 * - a key read from an environment variable the user names (custom provider only) goes only to the base URL it
 *   was named for, and only names that say they hold a key are read (never PATH, HOME, or another preset's key).
 */
import { PROVIDER_PRESETS, findPreset } from '../../shared/providers.js';
import {
  SEARCH_BACKEND_IDS,
  SEARCH_BACKENDS,
  SEARCH_KEY_ENVS,
  searchBackendOfKey,
  searchKeyName,
} from '../../shared/search-backends.js';

/** A base URL in one spelling: http(s) only, no trailing slash. Throws a clear Error otherwise. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`"${raw}" is not a URL. Give the provider's base URL, such as https://api.openai.com/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`"${raw}" must start with http:// or https://, such as https://api.openai.com/v1.`);
  }
  return url.href.replace(/\/+$/, '');
}

export function sameBaseUrl(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  try {
    return normalizeBaseUrl(a) === normalizeBaseUrl(b);
  } catch {
    return false;
  }
}

/**
 * The base URL a key belongs to: a preset's own URL, or a web search backend's ('search:brave'); null for
 * presets without a fixed URL (custom, simulated).
 */
export function presetKeyUrl(providerName: string): string | null {
  const backend = searchBackendOfKey(providerName);
  const url = backend ? SEARCH_BACKENDS[backend].defaultUrl : findPreset(providerName)?.baseUrl;
  return url ? normalizeBaseUrl(url) : null;
}

/** The environment variable a key name falls back to: a preset's keyEnv, or a search backend's. */
function ownKeyEnv(name: string): string | null {
  const backend = searchBackendOfKey(name);
  return backend ? SEARCH_BACKENDS[backend].keyEnv : (findPreset(name)?.keyEnv ?? null);
}

/**
 * A preset that needs a key keeps its own URL: asked for another one, the request is refused (its key would
 * follow it). Presets of local servers (no key needed) may point elsewhere; their stored key does not follow.
 */
export function checkPresetUrl(providerName: string, requested: string, caller: 'cli' | 'app' = 'app'): void {
  const preset = findPreset(providerName);
  const own = presetKeyUrl(providerName);
  if (!preset || !own || !preset.needsKey || sameBaseUrl(own, requested)) return;
  const protocol = preset.protocol ?? 'openai';
  const how =
    caller === 'cli'
      ? `drop --provider ${preset.name} and pass --base-url ${requested}${protocol === 'openai' ? '' : ` --protocol ${protocol}`} --api-key-env VAR with that server's own key.`
      : `choose "Custom base URL"${protocol === 'openai' ? '' : `, protocol ${protocol === 'anthropic' ? 'Anthropic Messages' : protocol},`} and give that server's own key.`;
  throw new Error(
    `The ${preset.label} key is only ever sent to ${own}, not to ${requested}. To use another server, ${how}`,
  );
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const KEY_LIKE = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** Variables of the system or of a preset: never read as a custom provider's key. */
function reservedNames(): Set<string> {
  return new Set([...PROVIDER_PRESETS.map((p) => p.keyEnv).filter((n): n is string => !!n), ...SEARCH_KEY_ENVS]);
}

/** Check a variable name the user gave for a custom provider's key; returns it trimmed or throws a clear Error. */
export function checkKeyEnvName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!ENV_NAME.test(name)) {
    throw new Error(
      `"${String(raw)}" is not an environment variable name (letters, digits and _ only, e.g. MY_SERVER_API_KEY).`,
    );
  }
  if (!KEY_LIKE.test(name)) {
    throw new Error(
      `${name} does not look like a variable that holds an API key, so Parallax will not read it. Name the variable ` +
        `that holds the key, e.g. MY_SERVER_API_KEY (the name must contain KEY, TOKEN or SECRET).`,
    );
  }
  if (reservedNames().has(name.toUpperCase())) {
    const preset = PROVIDER_PRESETS.find((p) => p.keyEnv === name.toUpperCase());
    const backend = SEARCH_BACKEND_IDS.find((b) => SEARCH_BACKENDS[b].keyEnv === name.toUpperCase());
    const owner =
      preset ??
      (backend ? { label: SEARCH_BACKENDS[backend].label, baseUrl: SEARCH_BACKENDS[backend].defaultUrl } : undefined);
    throw new Error(
      `${name} is the ${owner?.label ?? 'preset'} key and is only sent to ${owner?.baseUrl}. Choose that provider instead, or name a variable that holds this server's key.`,
    );
  }
  return name;
}

/**
 * The variable names the user named in this app session, each bound to the base URL it was named for. Lives in
 * the host's memory only: after a restart the user names it again.
 */
export class KeyEnvRegistry {
  private readonly bound = new Map<string, string>();

  register(name: string, baseUrl: string): void {
    this.bound.set(checkKeyEnvName(name), normalizeBaseUrl(baseUrl));
  }

  /** Throws unless `name` was registered for `baseUrl` in this session. */
  check(name: string, baseUrl: string): string {
    const checked = checkKeyEnvName(name);
    const url = this.bound.get(checked);
    if (!url) {
      throw new Error(
        `The key variable ${checked} was not named in this app session. Type its name in the API key field of the ` +
          `composer (custom provider) and press Use, then start again.`,
      );
    }
    if (!sameBaseUrl(url, baseUrl)) {
      throw new Error(
        `The key in ${checked} was named for ${url}, so it is not sent to ${baseUrl}. Name it again for this URL in the composer.`,
      );
    }
    return checked;
  }
}

/** The base URL a key stored with keys:set is bound to, or a clear Error when it cannot be stored. */
export function bindingForNewKey(providerName: unknown, baseUrl: unknown): string {
  const backend = typeof providerName === 'string' ? searchBackendOfKey(providerName) : null;
  if (backend) {
    // A search backend's key goes to the backend's own URL only, like a preset's.
    const own = presetKeyUrl(providerName as string)!;
    if (typeof baseUrl === 'string' && baseUrl.trim() && !sameBaseUrl(own, baseUrl)) {
      throw new Error(`A ${SEARCH_BACKENDS[backend].label} key is only sent to ${own}, not to ${baseUrl}.`);
    }
    return own;
  }
  const preset = typeof providerName === 'string' ? findPreset(providerName) : undefined;
  if (!preset || preset.name === 'simulated') {
    throw new Error(
      `Unknown provider "${String(providerName)}". Keys are stored for: ${PROVIDER_PRESETS.filter(
        (p) => p.name !== 'simulated',
      )
        .map((p) => p.name)
        .join(', ')}.`,
    );
  }
  const own = presetKeyUrl(preset.name);
  if (own) {
    if (typeof baseUrl === 'string' && baseUrl.trim() && !sameBaseUrl(own, baseUrl)) {
      throw new Error(
        `A ${preset.label} key is only sent to ${own}. To store a key for ${baseUrl}, choose "Custom base URL".`,
      );
    }
    return own;
  }
  if (typeof baseUrl !== 'string' || !baseUrl.trim()) {
    throw new Error(
      "Enter the base URL first: a custom provider's key is stored for one base URL and only ever sent there.",
    );
  }
  return normalizeBaseUrl(baseUrl.trim());
}

/** Where the key for a run comes from: an environment variable, the stored key, or nowhere. */
export type KeySource = { readonly kind: 'env'; readonly name: string } | { readonly kind: 'stored' } | null;

/**
 * The key a run at `provider.baseUrl` may use: the variable the user named (already checked by the host), else
 * the stored key if it is bound to this URL (`storedBoundTo`: undefined when none is stored), else the
 * preset's own variable if this is the preset's URL.
 */
export function keySource(
  provider: { readonly name: string; readonly baseUrl: string },
  apiKeyEnv: string | null,
  storedBoundTo: string | null | undefined,
  env: Readonly<Record<string, string | undefined>>,
): KeySource {
  const presetEnv = ownKeyEnv(provider.name);
  if (apiKeyEnv && apiKeyEnv !== presetEnv) return { kind: 'env', name: apiKeyEnv };
  if (storedBoundTo !== undefined && sameBaseUrl(storedBoundTo, provider.baseUrl)) return { kind: 'stored' };
  if (presetEnv && env[presetEnv]?.trim() && sameBaseUrl(presetKeyUrl(provider.name), provider.baseUrl))
    return { kind: 'env', name: presetEnv };
  return null;
}

export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | null {
  return env[name]?.trim() || null;
}

/** keys:status for every preset that needs a key or has one stored. */
export function keyStatuses(
  stored: ReadonlyMap<string, { readonly boundTo: string | null }>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, { available: boolean; boundTo: string | null }> {
  const out: Record<string, { available: boolean; boundTo: string | null }> = {};
  for (const preset of PROVIDER_PRESETS) {
    const entry = stored.get(preset.name);
    if (!preset.needsKey && !entry) continue;
    const inEnv = Boolean(preset.keyEnv && env[preset.keyEnv]?.trim());
    const boundTo = entry?.boundTo ?? presetKeyUrl(preset.name);
    out[preset.name] = { available: (entry !== undefined && entry.boundTo !== null) || inEnv, boundTo };
  }
  for (const backend of SEARCH_BACKEND_IDS) {
    const keyEnv = SEARCH_BACKENDS[backend].keyEnv;
    if (!keyEnv) continue;
    const name = searchKeyName(backend);
    const entry = stored.get(name);
    out[name] = {
      available: (entry !== undefined && entry.boundTo !== null) || Boolean(env[keyEnv]?.trim()),
      boundTo: presetKeyUrl(name),
    };
  }
  return out;
}
