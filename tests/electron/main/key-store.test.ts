import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyStore, type SafeStorageLike } from '../../../electron/main/key-store.js';
import { findPreset } from '../../../shared/providers.js';
import type { ProviderInfo } from '../../../shared/run-spec.js';

/** A reversible stand-in for the OS keychain that records what it was asked to do. */
function fakeSafeStorage(opts: { available?: boolean; backend?: string } = {}) {
  const log: string[] = [];
  const storage: SafeStorageLike = {
    isEncryptionAvailable: () => opts.available ?? true,
    encryptString: (s) => {
      log.push('encrypt');
      return Buffer.from(`enc:${[...s].reverse().join('')}`);
    },
    decryptString: (b) => {
      log.push('decrypt');
      const text = b.toString();
      if (!text.startsWith('enc:')) throw new Error('bad ciphertext');
      return [...text.slice(4)].reverse().join('');
    },
    getSelectedStorageBackend: () => opts.backend ?? 'gnome_libsecret',
  };
  return { storage, log };
}

/** A provider at its preset's own base URL (custom: https://x/v1), where its key may go. */
const provider = (name: string, baseUrl = findPreset(name)?.baseUrl ?? 'https://x/v1'): ProviderInfo => ({
  name,
  baseUrl,
  model: 'm',
  simulated: false,
});
const KEY = 'sk-test-1234567890abcdef';

function setup(opts: Parameters<typeof fakeSafeStorage>[0] & { env?: Record<string, string> } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'parallax-keys-'));
  const file = path.join(dir, 'keys.json');
  const fake = fakeSafeStorage(opts);
  const store = createKeyStore({ file, safeStorage: fake.storage, platform: 'linux', env: opts.env ?? {} });
  return { file, store, ...fake };
}

describe('key store', () => {
  it('writes only encrypted, base64 text to the keys file and decrypts on demand', async () => {
    const { file, store, log } = setup();
    await store.set('openai', `  ${KEY}\n`, null);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    const saved = JSON.parse(text) as { keys: Record<string, string> };
    expect(Buffer.from(saved.keys.openai, 'base64').toString()).toMatch(/^enc:/);
    expect(log).toEqual(['encrypt']);
    expect(await store.getApiKey(provider('openai'), null)).toBe(KEY);
    expect(log).toEqual(['encrypt', 'decrypt']);
  });

  it('status reports availability and the bound URL only, never the key', async () => {
    const { store } = setup({ env: { DEEPSEEK_API_KEY: 'from-env' } });
    await store.set('openai', KEY, null);
    const status = await store.status();
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(JSON.stringify(status)).not.toContain('from-env');
    expect(status).toMatchObject({
      openai: { available: true, boundTo: 'https://api.openai.com/v1' },
      deepseek: { available: true, boundTo: 'https://api.deepseek.com/v1' },
      openrouter: { available: false, boundTo: 'https://openrouter.ai/api/v1' },
    });
    expect(status.simulated).toBeUndefined();
  });

  it('refuses to store when encryption is unavailable, and writes nothing', async () => {
    const { file, store } = setup({ available: false });
    await expect(store.set('openai', KEY, null)).rejects.toThrow(
      /keychain is not available.*never saves keys in plain text/,
    );
    expect(() => readFileSync(file)).toThrow();
  });

  it("refuses Linux's basic_text backend, which is obfuscation rather than encryption", async () => {
    const { file, store, log } = setup({ backend: 'basic_text' });
    await expect(store.set('openai', KEY, null)).rejects.toThrow(/keyring.*environment variable/);
    expect(log).toEqual([]);
    expect(() => readFileSync(file)).toThrow();
  });

  it('falls back to the environment variable when nothing is stored', async () => {
    const { store } = setup({ env: { OPENAI_API_KEY: ' env-key ', MY_KEY: 'mine' } });
    expect(await store.getApiKey(provider('openai'), null)).toBe('env-key');
    expect(await store.getApiKey(provider('custom'), 'MY_KEY')).toBe('mine');
    expect(await store.getApiKey(provider('ollama'), null)).toBeNull();
  });

  it('an empty key forgets the stored one', async () => {
    const { store, file } = setup();
    await store.set('openai', KEY, null);
    await store.set('openai', '   ', null);
    expect(await store.getApiKey(provider('openai'), null)).toBeNull();
    expect(JSON.parse(readFileSync(file, 'utf8')).keys).toEqual({});
  });

  it('rejects unknown providers and text that is not a key, saying what to do', async () => {
    const { store } = setup();
    await expect(store.set('nope', KEY, null)).rejects.toThrow(/Unknown provider "nope".*openai/);
    await expect(store.set('openai', 'two words', null)).rejects.toThrow(/Paste only the key/);
    await expect(store.set('openai', 42 as unknown as string, null)).rejects.toThrow(/must be text/);
  });

  it('explains a key the keychain can no longer decrypt', async () => {
    const { store, file } = setup();
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        keys: { openai: Buffer.from('garbage').toString('base64') },
        boundTo: { openai: 'https://api.openai.com/v1' },
      }),
    );
    await expect(store.getApiKey(provider('openai'), null)).rejects.toThrow(
      /can no longer be decrypted.*Enter the key again/,
    );
  });

  it('never hands out a key stored before keys were bound to a URL, and never decrypts it', async () => {
    const { store, file, log } = setup();
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        keys: { custom: Buffer.from(`enc:${[...KEY].reverse().join('')}`).toString('base64') },
      }),
    );
    expect(await store.getApiKey(provider('custom', 'https://anywhere.example/v1'), null)).toBeNull();
    expect((await store.status()).custom).toEqual({ available: false, boundTo: null });
    expect(log).toEqual([]);
  });

  it('keeps both keys when two are saved at once', async () => {
    const { store } = setup();
    await Promise.all([store.set('openai', 'k-one', null), store.set('deepseek', 'k-two', null)]);
    expect(await store.getApiKey(provider('openai'), null)).toBe('k-one');
    expect(await store.getApiKey(provider('deepseek'), null)).toBe('k-two');
  });

  it('treats a damaged keys file as empty', async () => {
    const { store, file } = setup();
    writeFileSync(file, '{not json');
    expect((await store.status()).openai.available).toBe(false);
    await store.set('openai', KEY, null);
    expect(await store.getApiKey(provider('openai'), null)).toBe(KEY);
  });

  it("stores a web search backend's key encrypted, bound to the backend's own URL, and hands it out only there", async () => {
    const { file, store } = setup({ env: { TAVILY_API_KEY: 'tvly-env' } });
    await store.set('search:brave', KEY, null);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    const brave = (baseUrl: string): ProviderInfo => ({ name: 'search:brave', baseUrl, model: '', simulated: false });
    expect(await store.getApiKey(brave('https://api.search.brave.com/res/v1/'), null)).toBe(KEY);
    // A changed search URL (a proxy the page names) does not get the key.
    expect(await store.getApiKey(brave('https://proxy.example/res/v1'), null)).toBeNull();
    await expect(store.set('search:brave', KEY, 'https://proxy.example/res/v1')).rejects.toThrow(
      /only sent to https:\/\/api\.search\.brave\.com\/res\/v1/,
    );
    // The environment variable is the fallback, for the backend's own URL only.
    const tavily = { name: 'search:tavily', model: '', simulated: false };
    expect(await store.getApiKey({ ...tavily, baseUrl: 'https://api.tavily.com' }, null)).toBe('tvly-env');
    expect(await store.getApiKey({ ...tavily, baseUrl: 'http://127.0.0.1:9' }, null)).toBeNull();
    const status = await store.status();
    expect(status).toMatchObject({
      'search:brave': { available: true, boundTo: 'https://api.search.brave.com/res/v1' },
      'search:tavily': { available: true, boundTo: 'https://api.tavily.com' },
    });
    expect(JSON.stringify(status)).not.toContain('tvly-env');
    // A search key name that takes no key is not a place to store one.
    await expect(store.set('search:searxng', KEY, null)).rejects.toThrow(/Unknown provider/);
  });
});
