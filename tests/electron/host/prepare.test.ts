/** resolveProvider: a preset's key stays with the preset's URL, except that no key goes to the simulated model. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProvider } from '../../../electron/host/prepare.js';
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
    expect(r).toEqual({ info: { name: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', simulated: false }, apiKeyEnv: 'ANTHROPIC_API_KEY', needsKey: true });
  });

  it('at the simulated model, from the CLI: labelled simulated, and no key goes there', async () => {
    const r = await resolveProvider({ name: 'anthropic', baseUrl: sim.url, model: 'sim' }, services, 'any');
    expect(r).toEqual({ info: { name: 'anthropic', baseUrl: sim.url, model: 'sim', simulated: true }, apiKeyEnv: null, needsKey: false });
  });

  it('anywhere else, or from the page even at the simulated model: refused, so its key never follows', async () => {
    const refused = /Anthropic key is only ever sent to https:\/\/api\.anthropic\.com\/v1/;
    await expect(resolveProvider({ name: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }, services, 'any')).rejects.toThrow(refused);
    await expect(resolveProvider({ name: 'anthropic', baseUrl: sim.url, model: 'sim' }, services)).rejects.toThrow(refused);
  });
});
