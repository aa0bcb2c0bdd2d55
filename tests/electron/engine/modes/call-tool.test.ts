/** toolSearch 'call-tool': what call_tool forwards, and what it refuses with an error written for the model. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, ModeAdapter } from '../../../../electron/engine/modes/mode.js';
import { CALL_TOOL, createReactSearchMode } from '../../../../electron/engine/modes/react-search-mode.js';
import { parseSettings } from '../../../../shared/run-spec.js';

let workspace: string;
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-call-tool-')));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const create = (toolSearch: 'add-tools' | 'call-tool' = 'call-tool'): ModeAdapter =>
  createReactSearchMode({ workspace, settings: parseSettings({ toolSearch }) });
const context = (step: number): CallContext => ({
  step,
  callId: `c${step}`,
  signal: new AbortController().signal,
  emit: () => undefined,
});

async function found(mode: ModeAdapter, query: string, step = 1): Promise<void> {
  await mode.handleCall('search_tools', { query }, context(step));
}

describe('call_tool', () => {
  it('is offered only with toolSearch call-tool', () => {
    expect(
      create('add-tools')
        .tools()
        .map((t) => t.name),
    ).not.toContain(CALL_TOOL);
    expect(create('add-tools').forward).toBeUndefined();
    expect(
      create()
        .tools()
        .map((t) => t.name),
    ).toContain(CALL_TOOL);
  });

  it('forwards to a found tool from the next step, and to a common tool at any time', async () => {
    const mode = create();
    expect(mode.forward!(CALL_TOOL, { name: 'list_dir', arguments: { path: '.' } }, 1)).toEqual({
      ok: true,
      name: 'list_dir',
      args: { path: '.' },
    });
    const before = mode.forward!(CALL_TOOL, { name: 'current_time', arguments: {} }, 1);
    expect(before).toMatchObject({
      ok: false,
      error: expect.stringMatching(/current_time has not been found yet: search for it with search_tools first/),
    });
    await found(mode, 'current time', 2);
    expect(mode.forward!(CALL_TOOL, { name: 'current_time', arguments: {} }, 2)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/same step/),
    });
    expect(mode.forward!(CALL_TOOL, { name: 'current_time', arguments: { timezone: 'UTC' } }, 3)).toEqual({
      ok: true,
      name: 'current_time',
      args: { timezone: 'UTC' },
    });
    // The tool list never changed.
    expect(mode.tools().map((t) => t.name)).toEqual([
      'list_dir',
      'read_file',
      'write_file',
      'run_shell',
      'search_tools',
      CALL_TOOL,
    ]);
    // Other names are not the forwarder's business.
    expect(mode.forward!('read_file', { path: 'a' }, 3)).toBeNull();
  });

  it('refuses itself, search_tools, unknown names and arguments that are not one object, saying what to send', () => {
    const mode = create();
    const refuse = (args: Record<string, unknown>) => {
      const out = mode.forward!(CALL_TOOL, args, 1);
      expect(out?.ok).toBe(false);
      return out!.ok ? '' : out!.error;
    };
    expect(refuse({ name: CALL_TOOL, arguments: { name: 'list_dir', arguments: {} } })).toMatch(
      /call_tool does not call call_tool/,
    );
    expect(refuse({ name: 'search_tools', arguments: { query: 'x' } })).toMatch(/call search_tools directly/);
    expect(refuse({ name: 'rm_rf', arguments: {} })).toMatch(/no tool named "rm_rf"/);
    expect(refuse({ arguments: {} })).toMatch(/"name" must be the name of the tool/);
    for (const bad of ['{"path":"."}', ['.'], null, 3]) {
      expect(refuse({ name: 'list_dir', arguments: bad })).toMatch(
        /"arguments" must be one JSON object of list_dir's named arguments/,
      );
    }
    expect(refuse({ name: 'list_dir', arguments: ['.'] })).toMatch(
      /Send \{"name": "<tool name>", "arguments": \{…\}\}/,
    );
  });
});
