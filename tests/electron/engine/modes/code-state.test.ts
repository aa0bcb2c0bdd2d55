/**
 * codeState 'persist' in both sandboxes: a program's top-level variables stay for the run's next program, each
 * result lists what is stored and the sandbox's memory, and a program stopped by a limit loses them (said so).
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeMode } from '../../../../electron/engine/modes/code-mode.js';
import { createCodePyMode } from '../../../../electron/engine/modes/code-mode.js';
import { CODE_STATE_NOTE } from '../../../../electron/engine/modes/code/code-state.js';
import type { CallContext, ModeAdapter } from '../../../../electron/engine/modes/mode.js';
import { parseSettings, type RunSettingsInput } from '../../../../shared/run-spec.js';
import type { CodeRunEvent, StepEventInput } from '../../../../shared/step-event.js';

let workspace: string;
const modes: ModeAdapter[] = [];

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-code-state-')));
  await writeFile(join(workspace, 'app.txt'), 'ok\nERROR disk\n');
});
afterAll(async () => {
  for (const m of modes) m.dispose?.();
  await rm(workspace, { recursive: true, force: true });
});

function create(language: 'javascript' | 'python', settings: RunSettingsInput): ModeAdapter {
  const opts = { workspace, settings: parseSettings({ codeTimeoutMs: 1500, ...settings }) };
  const mode = language === 'python' ? createCodePyMode(opts) : createCodeMode(opts);
  modes.push(mode);
  return mode;
}

async function runCode(mode: ModeAdapter, code: string): Promise<{ text: string; event: CodeRunEvent }> {
  const events: StepEventInput[] = [];
  const ctx: CallContext = { step: 1, callId: 'c', signal: new AbortController().signal, emit: (e) => events.push(e) };
  const text = await mode.handleCall('run_code', { code }, ctx);
  return { text, event: events.find((e): e is CodeRunEvent => e.type === 'code-run')! };
}

const PROGRAMS = {
  javascript: {
    define:
      "const text = read_file('app.txt'); var count = text.split('\\n').length; function twice(x) { return x * 2; }\nprint(count);",
    reuse: 'print(twice(count), text.length);',
    endless: 'while (true) {}',
    check: 'print(typeof count);',
  },
  python: {
    define:
      "text = read_file('app.txt')\ncount = len(text.split('\\n'))\ndef twice(x):\n    return x * 2\nprint(count)",
    reuse: 'print(twice(count), len(text))',
    endless: 'while True:\n    pass',
    check: "print('count' in globals())",
  },
} as const;

describe.each(['javascript', 'python'] as const)('codeState persist (%s)', (language) => {
  const p = PROGRAMS[language];

  it('fresh: nothing carries over, and the description says so', async () => {
    const mode = create(language, {});
    expect(mode.tools()[0].description).toContain(CODE_STATE_NOTE.fresh);
    await runCode(mode, p.define);
    const { text, event } = await runCode(mode, p.reuse);
    expect(event.error?.message).toMatch(/not defined|NameError|count|twice/);
    expect(event.state).toBeUndefined();
    expect(text).not.toMatch(/stored for your next program/);
  });

  it("persist: the second program reuses the first one's variables; each result lists what is stored", async () => {
    const mode = create(language, { codeState: 'persist' });
    expect(mode.tools()[0].description).toContain(CODE_STATE_NOTE.persist);
    expect(mode.tools()[0].description).not.toContain(CODE_STATE_NOTE.fresh);
    const first = await runCode(mode, p.define);
    expect(first.event.error).toBeNull();
    expect(first.event.state!.variables.map((v) => v.name)).toEqual(expect.arrayContaining(['text', 'count', 'twice']));
    expect(first.event.state!.variables.find((v) => v.name === 'text')!.bytes).toBe(
      JSON.stringify('ok\nERROR disk\n').length,
    );
    expect(first.event.state!.memoryBytes).toBeGreaterThan(0);
    expect(first.text).toMatch(
      /\[stored for your next program: .*text \((string|str), \d+ bytes\).*sandbox memory [\d.]+ (KB|MB)\]$/,
    );
    const second = await runCode(mode, p.reuse);
    expect(second.event.error).toBeNull();
    expect(second.event.output.trim()).toBe(`6 ${'ok\nERROR disk\n'.length}`);
  });

  it('persist: a program stopped by the time limit loses what was stored, and the result says so', async () => {
    const mode = create(language, { codeState: 'persist' });
    await runCode(mode, p.define);
    const stopped = await runCode(mode, p.endless);
    expect(stopped.event.limitHit).toBe('time');
    expect(stopped.event.state).toMatchObject({ variables: [], lost: true });
    expect(stopped.text).toMatch(
      /stored variables lost: a limit stopped this program .*\(.*count.*\); define them again/,
    );
    const after = await runCode(mode, p.check);
    expect(after.event.output.trim()).toBe(language === 'python' ? 'False' : 'undefined');
    expect(after.event.state).toMatchObject({ lost: false });
  });
});

describe('codeState persist (javascript): declaring a stored name again', () => {
  it('fails with a note that says the name is stored and how to reuse it', async () => {
    const mode = create('javascript', { codeState: 'persist' });
    await runCode(mode, 'const rows = [1, 2];');
    const again = await runCode(mode, 'const rows = [3];');
    expect(again.event.error?.message).toMatch(/redeclaration of 'rows'/);
    expect(again.text).toMatch(
      /\[rows is already stored by an earlier program: assign it without const\/let\/class, or use another name\]/,
    );
    const assigned = await runCode(mode, 'rows.push(3); print(rows.join(","));');
    expect(assigned.event.output.trim()).toBe('1,2,3');
    const awaited = await runCode(mode, 'const x = await Promise.resolve(3);');
    expect(awaited.text).toMatch(
      /\[programs that keep their variables run as scripts, so top-level await is not available; tools need no await\]/,
    );
  });

  it('gives each program its own printing allowance, even after one printed past it', async () => {
    const mode = create('javascript', { codeState: 'persist', codeOutputChars: 100 });
    const loud = await runCode(mode, "print('x'.repeat(500));");
    expect(loud.event.output).toMatch(/output truncated at 100 characters/);
    const next = await runCode(mode, "print('second program');");
    expect(next.event.output.trim()).toBe('second program');
  });
});
