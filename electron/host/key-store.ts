/**
 * Keys held in this process's memory only (the web host, the CLI). The Electron shell keeps its own, in the
 * OS keychain. Environment variables are the fallback: a preset's keyEnv, or the variable the user named.
 * Every key is bound to the base URL it belongs to (key-binding.ts) and is handed out for that URL only.
 */
import type { KeyStatus } from '../../shared/ipc-contract.js';
import type { ProviderInfo } from '../../shared/run-spec.js';
import { bindingForNewKey, envValue, keySource, keyStatuses } from './key-binding.js';

export interface KeyStore {
  getApiKey(provider: ProviderInfo, apiKeyEnv: string | null): Promise<string | null>;
  /** `baseUrl`: the URL the key is for (required for the custom provider; a preset's own URL otherwise). */
  set(providerName: string, key: string, baseUrl: string | null): Promise<void>;
  status(): Promise<Record<string, KeyStatus>>;
}

export function memoryKeyStore(env: NodeJS.ProcessEnv = process.env): KeyStore {
  const keys = new Map<string, { key: string; boundTo: string }>();
  return {
    async getApiKey(provider, apiKeyEnv) {
      const stored = keys.get(provider.name);
      const source = keySource(provider, apiKeyEnv, stored?.boundTo, env);
      if (source?.kind === 'stored') return stored!.key;
      return source?.kind === 'env' ? envValue(env, source.name) : null;
    },
    async set(providerName, key, baseUrl) {
      const trimmed = typeof key === 'string' ? key.trim() : '';
      if (!trimmed) {
        // An empty key clears it, whatever the URL.
        if (typeof providerName === 'string') keys.delete(providerName);
        return;
      }
      const boundTo = bindingForNewKey(providerName, baseUrl);
      keys.set(providerName, { key: trimmed, boundTo });
    },
    async status() {
      return keyStatuses(keys, env);
    },
  };
}
