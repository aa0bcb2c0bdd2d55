/** resolveProvider: a preset's key stays with the preset's URL, except that no key goes to the simulated model. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProvider, searchKeyOf } from '../../../electron/host/prepare.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../../../shared/run-spec.js';
import type { EngineServices } from '../../../electron/host/engine-services.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  await sim.close();
});

const services = { simUrl: async () => sim.url } as unknown as EngineServices;

describe('resolveProvider for the Anthropic preset', () => {
  it('at its own URL: its key variable, a key required', async () => {
    const r = await resolveProvider({ name: 'anthropic', baseUrl: null, model: 'claude-haiku-4-5' }, services);
    expect(r).toEqual({
      info: { name: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', simulated: false },
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      needsKey: true,
    });
  });

  it('at the simulated model, from the CLI: labelled simulated, and no key goes there', async () => {
    const r = await resolveProvider({ name: 'anthropic', baseUrl: sim.url, model: 'sim' }, services, 'any');
    expect(r).toEqual({
      info: { name: 'anthropic', baseUrl: sim.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      needsKey: false,
    });
  });

  it('anywhere else, or from the page even at the simulated model: refused, so its key never follows', async () => {
    const refused = /Anthropic key is only ever sent to https:\/\/api\.anthropic\.com\/v1/;
    await expect(
      resolveProvider({ name: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }, services, 'any'),
    ).rejects.toThrow(refused);
    await expect(resolveProvider({ name: 'anthropic', baseUrl: sim.url, model: 'sim' }, services)).rejects.toThrow(
      refused,
    );
  });
});

describe('searchKeyOf', () => {
  const settings = (webSearch: RunSettings['webSearch'], webSearchUrl: string | null = null) => ({
    ...DEFAULT_SETTINGS,
    webSearch,
    webSearchUrl,
  });

  it('asks the key store for the backend at the URL the run would search, and says where to enter a missing key', async () => {
    const asked: string[] = [];
    const store = async (backend: string, url: string) => (
      asked.push(`${backend} ${url}`),
      backend === 'tavily' ? 'tvly-stored' : null
    );
    expect(await searchKeyOf(settings('tavily'), null, {}, store)).toBe('tvly-stored');
    await expect(
      searchKeyOf(settings('brave'), null, { BRAVE_API_KEY: 'ignored: the store decides' }, store),
    ).rejects.toThrow(
      /Brave Search API needs a key and none is set for https:\/\/api\.search\.brave\.com\/res\/v1: enter it under Advanced → Web search/,
    );
    expect(asked).toEqual(['tavily https://api.tavily.com', 'brave https://api.search.brave.com/res/v1']);
  });

  it('without a key store (the CLI) reads the environment; backends without keys and web-lookup need none', async () => {
    expect(await searchKeyOf(settings('brave'), null, { BRAVE_API_KEY: ' bsa-env ' })).toBe('bsa-env');
    await expect(searchKeyOf(settings('brave'), null, {})).rejects.toThrow(
      /set the environment variable BRAVE_API_KEY/,
    );
    expect(await searchKeyOf(settings('searxng'), null, {})).toBeNull();
    expect(await searchKeyOf(settings('brave'), 'web-lookup', {})).toBeNull();
  });
});
