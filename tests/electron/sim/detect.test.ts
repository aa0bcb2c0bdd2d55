import { describe, expect, it } from 'vitest';
import { isSimulatedEndpoint, startSimServer } from '../../../electron/sim/index.js';
import { startErrorServer } from '../../helpers/recording-proxy.js';

describe('isSimulatedEndpoint', () => {
  it('recognises the simulated model behind a plain base URL', async () => {
    const sim = await startSimServer();
    try {
      expect(await isSimulatedEndpoint(sim.url)).toBe(true);
      expect(await isSimulatedEndpoint(`${sim.url}/`)).toBe(true);
    } finally {
      await sim.close();
    }
  });

  it('says no for another server, a remote URL or a malformed one', async () => {
    const other = await startErrorServer(404, 'no such route');
    try {
      expect(await isSimulatedEndpoint(other.url)).toBe(false);
      expect(other.hits()).toBe(1);
    } finally {
      await other.close();
    }
    expect(await isSimulatedEndpoint('https://api.openai.com/v1')).toBe(false);
    expect(await isSimulatedEndpoint('not a url')).toBe(false);
  });
});
