/** provider:test for the Anthropic preset: its key as x-api-key (no bearer token), its paged list, dated names. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProvider } from '../../../electron/host/provider-check.js';
import type { EngineServices } from '../../../electron/host/engine-services.js';
import type { ProviderInfo } from '../../../shared/run-spec.js';

let server: Server;
let base = '';
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.headers['x-api-key'] !== 'sk-ant-good') {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        data: [
          {
            type: 'model',
            id: 'claude-haiku-4-5-20251001',
            display_name: 'Claude Haiku 4.5',
            created_at: '2025-10-15T00:00:00Z',
          },
        ],
        has_more: false,
        first_id: 'claude-haiku-4-5-20251001',
        last_id: 'claude-haiku-4-5-20251001',
      }),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});
afterAll(
  () =>
    new Promise((ok) => {
      server.closeAllConnections();
      server.close(ok);
    }),
);

const services = {} as EngineServices;

describe('checkProvider for Anthropic', () => {
  // The preset's own URL is Anthropic's (its key is bound to it), so requests to it are sent to the stand-in.
  async function check(key: string, model: string) {
    const getApiKey = async (info: ProviderInfo) => (info.name === 'anthropic' ? key : null);
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      realFetch(
        String(input instanceof Request ? input.url : input).replace('https://api.anthropic.com/v1', base),
        init,
      )) as typeof fetch;
    try {
      return await checkProvider({ name: 'anthropic', baseUrl: null, model }, true, services, getApiKey, 'any');
    } finally {
      globalThis.fetch = realFetch;
    }
  }

  it('sends x-api-key and anthropic-version, no bearer token, asks for the whole list, and knows an alias by its dated name', async () => {
    const r = await check('sk-ant-good', 'claude-haiku-4-5');
    expect(r).toMatchObject({ ok: true, models: ['claude-haiku-4-5-20251001'] });
    const last = seen.at(-1)!;
    expect(last.url).toBe('/v1/models?limit=1000');
    expect([last.headers['x-api-key'], last.headers['anthropic-version'], last.headers.authorization]).toEqual([
      'sk-ant-good',
      '2023-06-01',
      undefined,
    ]);
  });

  it('a refused key is reported as such', async () => {
    expect(await check('sk-ant-bad', 'claude-haiku-4-5')).toMatchObject({ ok: false, reason: 'bad-key' });
  });

  it('a model it does not list is named', async () => {
    expect(await check('sk-ant-good', 'claude-nope')).toMatchObject({ ok: false, reason: 'unknown-model' });
  });
});
