/**
 * Code Mode (Python) as the loop sees it: one run_code tool described for Python (the catalog as Python
 * signatures with return types), Python loaded before the run is released, one code-run event per call.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodePyMode, prewarmPythonSandbox } from '../../../../electron/engine/modes/code-mode.js';
import type { CallContext, ModeAdapter } from '../../../../electron/engine/modes/mode.js';
import { PY_PROGRAMS } from '../../../../electron/sim/policies/programs.js';
import { warmUpTools } from '../../../../electron/engine/tools/index.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { CodeRunEvent, StepEventInput } from '../../../../shared/step-event.js';

let workspace: string;
let mode: ModeAdapter;
let load: Awaited<ReturnType<typeof prewarmPythonSandbox>>;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-code-py-mode-')));
  await writeFile(join(workspace, 'app.txt'), 'ok\nERROR disk\nok\nERROR net\n');
  await writeFile(join(workspace, 'db.txt'), 'ERROR lock\nok\n');
  // As a Code Mode (Python) worker does before 'ready'.
  [load] = await Promise.all([prewarmPythonSandbox(), warmUpTools()]);
  mode = createCodePyMode({ workspace, settings: parseSettings({}) });
});
afterAll(async () => {
  mode.dispose?.();
  await rm(workspace, { recursive: true, force: true });
});

function context(): CallContext & { events: StepEventInput[] } {
  const events: StepEventInput[] = [];
  return { step: 1, callId: 'call_1', signal: new AbortController().signal, emit: (e) => events.push(e), events };
}

describe('Code Mode (Python)', () => {
  it('offers one run_code tool for Python, its catalog in Python signatures with return types', () => {
    const [runCode, ...rest] = mode.tools();
    expect(rest).toEqual([]);
    expect(runCode.name).toBe('run_code');
    expect(runCode.parameters).toMatchObject({
      properties: { code: { type: 'string', description: 'The Python program to run.' } },
      required: ['code'],
    });
    const d = runCode.description;
    expect(d).toMatch(/^Run a Python program\. Only what it prints/);
    for (const line of [
      '- def list_dir(path: str = ".") -> list[str]',
      '- def read_file(path: str) -> str',
      '- def write_file(path: str, content: str) -> str',
    ]) {
      expect(d).toContain(line);
    }
    expect(d).toMatch(
      /^- def run_shell\(command: str\) -> \{exitCode: float \| None, stdout: str, stderr: str, timedOut: bool\}$/m,
    );
    expect(d).toContain('- def search_tools(query: str) -> list[tool]');
    expect(d).toContain('.describe()');
    expect(mode.systemPrompt).toMatch(/Python programs for the run_code tool/);
  });

  it('loads Python before the run is released and says what it cost', () => {
    expect(load.loadMs).toBeGreaterThan(0);
    expect(load.rssBytes).toBeGreaterThan(50 * 1024 * 1024);
    expect(['bubblewrap', 'netns', 'seatbelt', 'process']).toContain(load.containment);
  });

  it("runs the simulated model's log-stats program: one code-run event, the tools called inside, only the printed rows back", async () => {
    const ctx = context();
    const text = await mode.handleCall('run_code', { code: PY_PROGRAMS.logStats }, ctx);
    expect(text).toBe('app.txt\t4\t2\ndb.txt\t2\t1');
    const runs = ctx.events.filter((e): e is Omit<CodeRunEvent, 'runId' | 'seq' | 't'> => e.type === 'code-run');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.toolCalls.map((c) => c.name)).toEqual(['list_dir', 'read_file', 'read_file']);
    expect(runs[0]!.error).toBeNull();
    expect(runs[0]!.printedBytes).toBeLessThan(runs[0]!.toolBytes);
  });

  it('says what to send when the call is not a Python program in "code"', async () => {
    expect(await mode.handleCall('run_code', { program: 'print(1)' }, context())).toMatch(
      /needs \{"code": "<Python program>"\}/,
    );
    expect(await mode.handleCall('read_file', { path: 'a' }, context())).toMatch(
      /call it with \{"code": "<Python program>"\}/,
    );
  });
});
