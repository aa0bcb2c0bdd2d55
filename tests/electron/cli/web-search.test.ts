/**
 * web_search from the CLI: the built-in web-lookup task answers and validates offline in ReAct and Code Mode
 * (searching the fixture server's index, following a result with fetch_url), and a backend that needs a key
 * without one, or an unknown backend, stops before any worker starts with what to set.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliArgv } from '../host/cli-process.js';

const exec = promisify(execFile);
const cli = [...cliArgv];

async function parallax(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const r = await exec(process.execPath, [...cli, ...args], { env: { ...process.env, ...env }, timeout: 90_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('parallax run --task web-lookup', () => {
  for (const mode of ['react', 'code']) {
    it(`${mode}: answers with the year and its source, validated against the live page`, async () => {
      const r = await parallax(['run', '--task', 'web-lookup', '--mode', mode, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as {
        status: string;
        answer: string;
        validation: { ok: boolean; detail: string };
      };
      expect(out).toMatchObject({ status: 'answered', validation: { ok: true } });
      expect(out.answer).toMatch(/first lit in 1[89]\d\d/);
      expect(out.answer).toMatch(/http:\/\/127\.0\.0\.1:\d+\/web\/marrow-point-lighthouse/);
    });
  }
});

describe('--web-search', () => {
  it('a backend that needs a key and has none fails at once, naming the variable', async () => {
    const r = await parallax(['run', '--task', 'calc', '--web-search', 'brave'], { BRAVE_API_KEY: '' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /Brave Search API needs a key and none is set for https:\/\/api\.search\.brave\.com\/res\/v1: set the environment variable BRAVE_API_KEY/,
    );
  });

  it('an unknown backend or a URL that is not http(s) is refused with the choices', async () => {
    const bad = await parallax(['run', '--task', 'calc', '--web-search', 'google']);
    expect(bad.stderr).toMatch(/--web-search must be one of off, searxng, brave, tavily, fixture; got "google"/);
    const url = await parallax([
      'run',
      '--task',
      'calc',
      '--web-search',
      'searxng',
      '--web-search-url',
      'file:///etc/passwd',
    ]);
    expect(url.stderr).toMatch(/webSearchUrl: must be an http:\/\/ or https:\/\/ URL/);
  });
});
