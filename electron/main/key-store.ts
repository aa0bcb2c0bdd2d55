/**
 * API keys, encrypted with the OS keychain through Electron's safeStorage and kept base64-encoded in a small
 * JSON file in userData. Keys are decrypted only here, when a run starts; the renderer only ever learns
 * whether a key is available. When real encryption is unavailable the store refuses: there is no plain-text
 * fallback.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProviderInfo } from '../../shared/run-spec.js';
import { bindingForNewKey, envValue, keySource, keyStatuses } from '../host/key-binding.js';
import type { KeyStore } from '../host/key-store.js';

/** The part of Electron's safeStorage the store uses (a fake in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a hard-coded password, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

export interface KeyStoreOptions {
  /** Absolute path of the keys file, normally <userData>/keys.json. */
  readonly file: string;
  readonly safeStorage: SafeStorageLike;
  readonly platform?: NodeJS.Platform;
  /** Environment consulted when no key is stored (e.g. OPENAI_API_KEY). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface KeysFile {
  readonly version: 1;
  readonly keys: Record<string, string>;
  /** The base URL each key is bound to; a key without one (stored before binding) is never sent. */
  readonly boundTo: Record<string, string>;
}

export class KeyStoreError extends Error {
  override name = 'KeyStoreError';
}

/**
 * The host's KeyStore, encrypted at rest. set: stores (an empty key forgets it); status: for each preset that
 * needs a key or has one stored, whether a run would find one (stored, or in its environment variable);
 * getApiKey: the decrypted stored key, else the named or preset environment variable, else null.
 */
export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const { file, safeStorage } = options;
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;

  const assertEncryption = (): void => {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new KeyStoreError(
        'The system keychain is not available, so Parallax will not store the key (it never saves keys in plain text). ' +
          "Unlock or install a keychain, or set the provider's key environment variable before starting Parallax.",
      );
    }
    if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
      throw new KeyStoreError(
        'Electron is using no keyring here (its basic_text backend: a fixed key, obfuscation rather than encryption), so Parallax will not store the key. ' +
          "No Secret Service answered on the session D-Bus when Parallax started. Start a keyring (GNOME Keyring, KeePassXC's Secret Service, KWallet) and restart Parallax, " +
          "or start it with --password-store=gnome-libsecret (kwallet6 on KDE), or set the provider's key environment variable before starting Parallax.",
      );
    }
  };

  const load = async (): Promise<KeysFile> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: {}, boundTo: {} };
      throw err;
    }
    const strings = (value: unknown): Record<string, string> => {
      const out: Record<string, string> = Object.create(null) as Record<string, string>;
      if (typeof value === 'object' && value !== null) {
        for (const [name, v] of Object.entries(value)) if (typeof v === 'string') out[name] = v;
      }
      return out;
    };
    try {
      const parsed = JSON.parse(text) as Partial<KeysFile> | null;
      return { version: 1, keys: strings(parsed?.keys), boundTo: strings(parsed?.boundTo) };
    } catch {
      // A damaged file holds nothing we could decrypt; the next save replaces it.
      return { version: 1, keys: {}, boundTo: {} };
    }
  };

  const save = async (data: KeysFile): Promise<void> => {
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, file).catch(async (err: unknown) => {
      await rm(tmp, { force: true });
      throw err;
    });
  };

  // Saves are read-modify-write: run them one at a time so two quick edits cannot drop each other.
  let writes: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = writes.then(fn, fn);
    writes = next.catch(() => undefined);
    return next;
  };

  return {
    set: (providerName, key, baseUrl) =>
      serial(async () => {
        if (typeof key !== 'string')
          throw new KeyStoreError('The key must be text. Paste the key exactly as the provider shows it.');
        const trimmed = key.trim();
        const data = await load();
        if (trimmed === '' && typeof providerName === 'string' && Object.hasOwn(data.keys, providerName)) {
          delete data.keys[providerName];
          delete data.boundTo[providerName];
          await save(data);
          return;
        }
        let boundTo: string;
        try {
          boundTo = bindingForNewKey(providerName, baseUrl);
        } catch (err) {
          throw new KeyStoreError((err as Error).message);
        }
        if (trimmed === '') return;
        // eslint-disable-next-line no-control-regex -- control characters are exactly what a key must not hold
        if (trimmed.length > 4096 || /[\s\u0000-\u001f\u007f]/.test(trimmed)) {
          throw new KeyStoreError(
            'That does not look like an API key (it contains spaces, line breaks or is too long). Paste only the key.',
          );
        }
        assertEncryption();
        data.keys[providerName] = safeStorage.encryptString(trimmed).toString('base64');
        data.boundTo[providerName] = boundTo;
        await save(data);
      }),

    async status() {
      const data = await load();
      const stored = new Map(
        Object.keys(data.keys).map((name) => [
          name,
          { boundTo: Object.hasOwn(data.boundTo, name) ? data.boundTo[name] : null },
        ]),
      );
      return keyStatuses(stored, env);
    },

    async getApiKey(provider: ProviderInfo, apiKeyEnv: string | null) {
      const providerName = provider.name;
      const data = await load();
      const stored = Object.hasOwn(data.keys, providerName) ? data.keys[providerName] : undefined;
      const boundTo = Object.hasOwn(data.boundTo, providerName) ? data.boundTo[providerName] : null;
      // Decrypted only when it would be handed out: for the URL it is bound to.
      const decrypt = (): string => {
        try {
          return safeStorage.decryptString(Buffer.from(stored!, 'base64'));
        } catch {
          throw new KeyStoreError(
            `The stored key for "${providerName}" can no longer be decrypted (the system keychain changed). Enter the key again under Model in the composer.`,
          );
        }
      };
      const source = keySource(provider, apiKeyEnv, stored === undefined ? undefined : boundTo, env);
      if (source?.kind === 'stored') return decrypt();
      return source?.kind === 'env' ? envValue(env, source.name) : null;
    },
  };
}
