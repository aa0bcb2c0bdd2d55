/** Hybrid mode as the loop sees it: direct file tools beside run_code, each call routed by its name. */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeMode } from '../../../../electron/engine/modes/code-mode.js';
import { createHybridMode } from '../../../../electron/engine/modes/hybrid-mode.js';
import type { CallContext, ModeAdapter } from '../../../../electron/engine/modes/mode.js';
import { createReactMode } from '../../../../electron/engine/modes/react-mode.js';
import { CODE_SYSTEM_PROMPT, REACT_SYSTEM_PROMPT } from '../../../../electron/engine/modes/prompts.js';
import { LOG_STATS_PROGRAM } from '../../../../electron/sim/policies/log-stats.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { CodeRunEvent, StepEventInput } from '../../../../shared/step-event.js';

let workspace: string;
let mode: ModeAdapter;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-hybrid-mode-')));
  await writeFile(join(workspace, 'app.txt'), 'ok\nERROR disk\nok\nERROR net\n');
  await writeFile(join(workspace, 'db.txt'), 'ERROR lock\nok\n');
  mode = createHybridMode({ workspace, settings: parseSettings({}) });
});
afterAll(async () => {
  mode.dispose?.();
  await rm(workspace, { recursive: true, force: true });
});

function context(step = 1, callId = 'call_1'): CallContext & { events: StepEventInput[] } {
  const events: StepEventInput[] = [];
  return { step, callId, signal: new AbortController().signal, emit: (e) => events.push(e), events };
}

describe('Hybrid mode', () => {
  it("offers list_dir and read_file with ReAct's schemas, and run_code with Code Mode's catalog", () => {
    const react = createReactMode({ workspace, settings: parseSettings({}) });
    const code = createCodeMode({ workspace, settings: parseSettings({}) });
    try {
      const tools = mode.tools();
      expect(tools.map((t) => t.name)).toEqual(['list_dir', 'read_file', 'run_code']);
      expect(tools.slice(0, 2)).toEqual(react.tools().filter((t) => t.name === 'list_dir' || t.name === 'read_file'));
      expect(tools[2]).toEqual(code.tools()[0]);
    } finally {
      code.dispose?.();
    }
  });

  it('shares the opening of the other prompts and says when to write a program', () => {
    const opening = REACT_SYSTEM_PROMPT.slice(0, REACT_SYSTEM_PROMPT.indexOf(' Call several'));
    expect(CODE_SYSTEM_PROMPT.startsWith(opening)).toBe(true);
    expect(mode.systemPrompt.startsWith(opening)).toBe(true);
    expect(mode.systemPrompt).toMatch(/directly for simple steps/);
    expect(mode.systemPrompt).toMatch(/batch processing .*run_code/);
  });

  it('runs a direct call as ReAct does: the tool result as text, no events', async () => {
    const ctx = context();
    expect(JSON.parse(await mode.handleCall('list_dir', { path: '.' }, ctx))).toEqual(['app.txt', 'db.txt']);
    expect(await mode.handleCall('read_file', { path: 'db.txt' }, ctx)).toBe('ERROR lock\nok\n');
    await expect(mode.handleCall('read_file', { path: 'missing.txt' }, ctx)).rejects.toThrow(
      /No file at "missing.txt"/,
    );
    expect(ctx.events).toEqual([]);
  });

  it('runs a program as Code Mode does, with one code-run event', async () => {
    const ctx = context(2, 'call_b');
    expect(await mode.handleCall('run_code', { code: LOG_STATS_PROGRAM }, ctx)).toBe('app.txt\t4\t2\ndb.txt\t2\t1');
    expect(ctx.events.map((e) => e.type)).toEqual(['code-run']);
    expect((ctx.events[0] as CodeRunEvent).toolCalls.map((c) => c.name)).toEqual([
      'list_dir',
      'read_file',
      'read_file',
    ]);
    expect(await mode.handleCall('run_code', {}, context())).toMatch(/^run_code needs \{"code"/);
  });
});
