/**
 * What a worker process inherits: the host's environment with every API key and key variable taken out. Used by
 * the comparison session for a round's workers and by the host for pooled ones (started before any key is known).
 */
import { PROVIDER_PRESETS } from '../../shared/providers.js';
import { SEARCH_KEY_ENVS } from '../../shared/search-backends.js';

type OneOrMore<T> = T | readonly T[];
const list = <T>(x: OneOrMore<T>): readonly T[] => (Array.isArray(x) ? x : [x as T]);

/**
 * The worker's environment: the host's, minus anything that holds an API key — every key and key variable the
 * comparison uses (its columns may use several providers).
 */
export function workerEnv(
  base: NodeJS.ProcessEnv,
  apiKeys: OneOrMore<string | null>,
  apiKeyEnvs: OneOrMore<string | null>,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const keyNames = new Set([
    ...PROVIDER_PRESETS.map((p) => p.keyEnv).filter((k): k is string => !!k),
    ...SEARCH_KEY_ENVS,
  ]);
  for (const name of list(apiKeyEnvs)) if (name) keyNames.add(name);
  const keys = list(apiKeys).filter((k): k is string => !!k && k.length >= 8);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || keyNames.has(name)) continue;
    if (keys.some((k) => value.includes(k))) continue;
    env[name] = value;
  }
  return env;
}
