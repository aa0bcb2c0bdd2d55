/**
 * Keys held in this process's memory only (the web host, the CLI). The Electron shell keeps its own, in the
 * OS keychain. Environment variables are the fallback: a preset's keyEnv, or the variable the user named.
 */
import { PROVIDER_PRESETS, findPreset } from '../../shared/providers.js';
import type { ProviderInfo } from '../../shared/run-spec.js';

export interface KeyStore {
  getApiKey(provider: ProviderInfo, apiKeyEnv: string | null): Promise<string | null>;
  set(providerName: string, key: string): Promise<void>;
  status(): Promise<Record<string, boolean>>;
}

export function memoryKeyStore(env: NodeJS.ProcessEnv = process.env): KeyStore {
  const keys = new Map<string, string>();
  const fromEnv = (name: string | null | undefined): string | null => (name ? env[name]?.trim() || null : null);
  return {
    async getApiKey(provider, apiKeyEnv) {
      return keys.get(provider.name) ?? fromEnv(apiKeyEnv) ?? fromEnv(findPreset(provider.name)?.keyEnv);
    },
    async set(providerName, key) {
      if (typeof providerName !== 'string' || !providerName.trim()) throw new Error('Name the provider the key is for.');
      const trimmed = typeof key === 'string' ? key.trim() : '';
      if (trimmed) keys.set(providerName, trimmed);
      else keys.delete(providerName); // an empty key clears it
    },
    async status() {
      const out: Record<string, boolean> = {};
      for (const p of PROVIDER_PRESETS) if (p.needsKey || keys.has(p.name)) out[p.name] = keys.has(p.name) || !!fromEnv(p.keyEnv);
      for (const name of keys.keys()) out[name] = true;
      return out;
    },
  };
}
