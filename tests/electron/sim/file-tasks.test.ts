/**
 * The one-file tasks (config-lookup, write-errors, missing-file) on the simulated model with the real tools
 * and sandbox: the steps each mode takes, right answers on several fixture seeds, and the recovery from the
 * read_file error the tool really returns.
 */
import { mkdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { decide } from '../../../electron/sim/index.js';
import { createMode } from '../../../electron/engine/modes/index.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { parseSettings, type ModeId } from '../../../shared/run-spec.js';
import type { WireTool } from '../../../electron/sim/types.js';
import { closeSandbox, drive, fixtureFolders, toolNames, type Mode } from './drive.js';

let sim: SimServer;
const folders = fixtureFolders('parallax-file-tasks');

beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  await sim.close();
  closeSandbox();
  await folders.removeAll();
});

async function run(taskId: string, mode: Mode, seed?: number, extra: { truncateChars?: number; trial?: number } = {}) {
  const workspace = await folders.workspaceFor(taskId, seed);
  const ref = resolveTask(taskId, { fixtureUrl: null });
  const result = await drive({ baseURL: sim.url, task: ref.text, mode, workspace, ...extra });
  const validation = await validateAnswer(ref, result.answer, { workspace });
  return { ...result, workspace, validation };
}

const SEEDS = [1, 2, 5, 13, 99];

describe('config-lookup', () => {
  it.each(SEEDS)(
    'seed %i: ReAct reads config.json once and answers; Code Mode prints the port from one program',
    async (seed) => {
      const react = await run('config-lookup', 'react', seed);
      expect(react.steps.map(toolNames)).toEqual([['read_file'], []]);
      expect(react.validation, react.answer).toMatchObject({ ok: true });
      const code = await run('config-lookup', 'code', seed);
      expect(code.steps.map(toolNames)).toEqual([['run_code'], []]);
      expect(code.validation, code.answer).toMatchObject({ ok: true });
      // The port in each answer is the one the workspace holds, read by the policy from the real result.
      const port = (
        JSON.parse(await readFile(path.join(code.workspace, 'config.json'), 'utf8')) as { server: { port: number } }
      ).server.port;
      expect(code.answer).toContain(String(port));
    },
  );
});

describe('write-errors', () => {
  it.each(SEEDS)(
    'seed %i: ReAct reads, writes with write_file, answers; Code Mode does it in one program',
    async (seed) => {
      const react = await run('write-errors', 'react', seed);
      expect(react.steps.map(toolNames)).toEqual([['read_file'], ['write_file'], []]);
      expect(react.validation, `${react.answer}\n${react.validation?.detail}`).toMatchObject({ ok: true });
      const code = await run('write-errors', 'code', seed);
      expect(code.steps.map(toolNames)).toEqual([['run_code'], []]);
      expect(code.validation, `${code.answer}\n${code.validation?.detail}`).toMatchObject({ ok: true });
      // The log's lines never travel to the model in Code Mode.
      expect(JSON.stringify(code.bodies)).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN|ERROR)/);
    },
  );

  it('ReAct lets grep write the file when the read comes back truncated', async () => {
    const react = await run('write-errors', 'react', 3, { truncateChars: 500 });
    expect(react.steps.map(toolNames)).toEqual([['read_file'], ['run_shell'], []]);
    expect(react.validation, `${react.answer}\n${react.validation?.detail}`).toMatchObject({ ok: true });
  });
});

describe('missing-file', () => {
  it.each(SEEDS)(
    'seed %i: ReAct gets the real error, lists the folders it names, reads the notes and answers',
    async (seed) => {
      const react = await run('missing-file', 'react', seed);
      expect(react.steps.map(toolNames)).toEqual([['read_file'], ['list_dir', 'list_dir'], ['read_file'], []]);
      expect(react.steps[0].results[0]).toMatch(
        /^Error: No file at "release-notes\.txt" in the workspace\. The workspace root contains: README\.md, docs\/, src\/\./,
      );
      expect(react.steps[2].calls.map((c) => JSON.parse(c.function.arguments).path)).toEqual(['docs/release-notes.md']);
      expect(react.validation, `${react.answer}\n${react.validation?.detail}`).toMatchObject({ ok: true });
    },
  );

  it.each(SEEDS)(
    'seed %i: Code Mode reads the error from its program, then finds the file in a second one',
    async (seed) => {
      const code = await run('missing-file', 'code', seed);
      expect(code.steps.map(toolNames)).toEqual([['run_code'], ['run_code'], []]);
      expect(code.steps[0].results[0]).toMatch(/No file at "release-notes\.txt"/);
      expect(code.steps[1].results[0]).toMatch(/^found: docs\/release-notes\.md$/m);
      expect(code.validation, `${code.answer}\n${code.validation?.detail}`).toMatchObject({ ok: true });
    },
  );

  it('follows wherever the file really is: a folder the error does not name is found by listing deeper', async () => {
    const workspace = await folders.workspaceFor('missing-file', 4);
    await mkdir(path.join(workspace, 'src', 'notes'), { recursive: true });
    await rename(
      path.join(workspace, 'docs', 'release-notes.md'),
      path.join(workspace, 'src', 'notes', 'Release-Notes.md'),
    );
    await rm(path.join(workspace, 'docs'), { recursive: true });
    const ref = resolveTask('missing-file', { fixtureUrl: null });
    for (const mode of ['react', 'code'] as Mode[]) {
      const result = await drive({ baseURL: sim.url, task: ref.text, mode, workspace });
      expect(result.answer).toContain('src/notes/Release-Notes.md');
      expect(result.answer).toMatch(/latest release is version \d+\.\d+\.\d+/);
    }
  });

  it('reports an error that is not "not found" instead of searching, and says so when nothing matches', async () => {
    const workspace = await folders.workspaceFor('missing-file', 6);
    await mkdir(path.join(workspace, 'release-notes.txt'));
    const ref = resolveTask('missing-file', { fixtureUrl: null });
    const react = await drive({ baseURL: sim.url, task: ref.text, mode: 'react', workspace });
    expect(react.steps).toHaveLength(2);
    expect(react.answer).toMatch(/could not read release-notes\.txt: Error: "release-notes\.txt" is a folder/);

    const empty = await folders.workspaceFor('missing-file', 6);
    await rm(path.join(empty, 'docs'), { recursive: true });
    for (const mode of ['react', 'code'] as Mode[]) {
      const result = await drive({ baseURL: sim.url, task: ref.text, mode, workspace: empty });
      expect(result.answer).toMatch(/There is no release-notes\.txt in the workspace/);
      expect(result.steps.length).toBeLessThanOrEqual(4);
    }
  });
});

describe('Hybrid and ReAct + tool search', () => {
  let wire: Map<ModeId, WireTool[]>;
  beforeAll(async () => {
    const workspace = await realpath(await folders.emptyFolder('modes'));
    wire = new Map();
    for (const id of ['hybrid', 'react-search'] as ModeId[]) {
      const mode = createMode(id, { workspace, settings: parseSettings({}) });
      wire.set(
        id,
        mode.tools().map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        })),
      );
      mode.dispose?.();
    }
  });
  const firstCalls = (taskId: string, mode: ModeId) => {
    const { reply } = decide(
      [{ role: 'user', content: resolveTask(taskId, { fixtureUrl: null }).text }],
      wire.get(mode)!,
    );
    return reply.kind === 'tools' ? reply.calls.map((c) => c.name) : [];
  };

  it('Hybrid looks up and recovers with direct calls, and writes the file from a program (it has no direct write_file)', () => {
    expect(firstCalls('config-lookup', 'hybrid')).toEqual(['read_file']);
    expect(firstCalls('missing-file', 'hybrid')).toEqual(['read_file']);
    expect(firstCalls('write-errors', 'hybrid')).toEqual(['run_code']);
  });

  it('ReAct + tool search needs no search: the file tools are offered from the start', () => {
    expect(firstCalls('config-lookup', 'react-search')).toEqual(['read_file']);
    expect(firstCalls('missing-file', 'react-search')).toEqual(['read_file']);
    expect(firstCalls('write-errors', 'react-search')).toEqual(['read_file']);
  });
});
