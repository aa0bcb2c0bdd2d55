/**
 * The ported tools against the originals: tests/fixtures/m3tooleval/tool-calls.json holds what the original
 * Python tools returned (str(result), as the harness shows a result) or raised, for single calls of every tool
 * and for two browsing sessions whose calls depend on the browser's state; made by the script in that folder's
 * README. Every call must give the same text, or the same exception type and message.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { M3_DOMAINS } from '../../../../electron/tasks/m3tooleval/m3-tasks.js';
import type { M3Session } from '../../../../electron/tasks/m3tooleval/m3-tool.js';
import { literalEval } from '../../../../electron/tasks/m3tooleval/py-expr.js';
import { PyError, str } from '../../../../electron/tasks/m3tooleval/py-value.js';

interface Recorded {
  readonly domain?: string;
  readonly tool: string;
  readonly args: readonly string[];
  readonly out?: string;
  readonly error?: string;
  readonly message?: string;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/m3tooleval/tool-calls.json', import.meta.url), 'utf8'),
) as {
  calls: Recorded[];
  sessions: Recorded[][];
};

function replay(domain: string, call: Recorded, session: M3Session): Recorded {
  const tool = M3_DOMAINS.find((d) => d.id === domain)!.tools.find((t) => t.name === call.tool)!;
  try {
    return { ...call, out: str(tool.run(call.args.map(literalEval), session)), error: undefined, message: undefined };
  } catch (error) {
    if (!(error instanceof PyError)) throw error;
    return { ...call, out: undefined, error: error.pyType, message: error.message };
  }
}

describe('the ported M3ToolEval tools', () => {
  it('return what the originals return, and raise what they raise, for every recorded call', () => {
    expect(fixture.calls.length).toBeGreaterThan(100);
    const got = fixture.calls.map((c) => replay(c.domain!, c, {}));
    expect(got).toEqual(fixture.calls.map((c) => ({ ...c, out: c.out, error: c.error, message: c.message })));
  });

  it('browse as the original browser does, call after call in one session', () => {
    for (const calls of fixture.sessions) {
      const session: M3Session = {};
      const got = calls.map((c) => replay('web_browsing', c, session));
      expect(got).toEqual(calls.map((c) => ({ ...c, out: c.out, error: c.error, message: c.message })));
    }
  });

  it('offer the original names and descriptions, one tool per name in each domain', () => {
    for (const domain of M3_DOMAINS) {
      const names = domain.tools.map((t) => t.name);
      expect(new Set(names).size, domain.id).toBe(names.length);
      for (const t of domain.tools) expect(t.description.length, t.name).toBeGreaterThan(20);
    }
    expect(M3_DOMAINS.map((d) => d.tools.length)).toEqual([6, 6, 6, 6, 6]);
  });
});
