import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRoot, resolveInWorkspace } from '../../../../electron/engine/tools/workspace.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
  writeFileSync(path.join(ws.root, 'a.txt'), 'a');
  mkdirSync(path.join(ws.root, 'logs'));
  writeFileSync(path.join(ws.outside, 'secret.txt'), 'secret');
});
afterEach(() => ws.cleanup());

async function refusal(userPath: string, use: 'read' | 'write' | 'list' = 'read'): Promise<string> {
  const error = await resolveInWorkspace(ws.root, userPath, use).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as ToolError).message;
}

describe('resolveInWorkspace', () => {
  it('resolves relative paths, existing or not, inside the workspace', async () => {
    expect(await resolveInWorkspace(ws.root, 'a.txt', 'read')).toBe(path.join(ws.root, 'a.txt'));
    expect(await resolveInWorkspace(ws.root, 'logs/../a.txt', 'read')).toBe(path.join(ws.root, 'a.txt'));
    expect(await resolveInWorkspace(ws.root, 'new/deep/file.txt', 'write')).toBe(
      path.join(ws.root, 'new/deep/file.txt'),
    );
    expect(await resolveInWorkspace(ws.root, '', 'list')).toBe(ws.root);
  });

  it('refuses absolute paths and names what the workspace holds', async () => {
    const message = await refusal('/etc/passwd');
    expect(message).toContain('is absolute');
    expect(message).toContain('relative to the workspace');
    expect(message).toContain('a.txt, logs/');
  });

  it('refuses .. escapes', async () => {
    expect(await refusal('../outside/secret.txt')).toContain('leads outside the workspace');
    expect(await refusal('logs/../../x', 'write')).toContain('leads outside the workspace');
  });

  it('refuses a symlink to a file outside', async () => {
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    expect(await refusal('link.txt')).toContain('symbolic link that points outside');
  });

  it('refuses a path under a symlinked directory that points outside, for reads and new files', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    expect(await refusal('out/secret.txt')).toContain('symbolic link');
    expect(await refusal('out/new/file.txt', 'write')).toContain('symbolic link');
    expect(await refusal('out', 'list')).toContain('symbolic link');
  });

  it('refuses writes through a dangling symlink whose target is outside', async () => {
    symlinkSync(path.join(ws.outside, 'created.txt'), path.join(ws.root, 'dangling.txt'));
    expect(await refusal('dangling.txt', 'write')).toContain('symbolic link');
    // A chain of dangling links, the last hop written relative to a symlinked folder.
    symlinkSync(ws.outside, path.join(ws.root, 'outdir'));
    symlinkSync('../elsewhere.txt', path.join(ws.outside, 'hop'));
    symlinkSync('outdir/hop', path.join(ws.root, 'chain.txt'));
    expect(await refusal('chain.txt', 'write')).toContain('symbolic link');
  });

  it('allows symlinks that stay inside', async () => {
    symlinkSync('logs', path.join(ws.root, 'logs-link'));
    symlinkSync('a.txt', path.join(ws.root, 'alias.txt'));
    symlinkSync('logs/later.txt', path.join(ws.root, 'pending.txt'));
    expect(await resolveInWorkspace(ws.root, 'logs-link/x.txt', 'write')).toBe(path.join(ws.root, 'logs/x.txt'));
    expect(await resolveInWorkspace(ws.root, 'alias.txt', 'read')).toBe(path.join(ws.root, 'a.txt'));
    expect(await resolveInWorkspace(ws.root, 'pending.txt', 'write')).toBe(path.join(ws.root, 'logs/later.txt'));
  });

  it('reports a symlink loop clearly', async () => {
    symlinkSync('loop-b', path.join(ws.root, 'loop-a'));
    symlinkSync('loop-a', path.join(ws.root, 'loop-b'));
    const error = await resolveInWorkspace(ws.root, 'loop-a', 'read').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/ELOOP|Too many levels/);
  });
});

describe('describeRoot', () => {
  it('lists at most 20 entries and says how many more', async () => {
    for (let i = 0; i < 25; i++) writeFileSync(path.join(ws.root, `f${String(i).padStart(2, '0')}.txt`), '');
    const text = await describeRoot(ws.root);
    expect(text).toContain('f00.txt');
    expect(text).toContain('and 7 more');
  });

  it('says when the workspace is empty', async () => {
    expect(await describeRoot(ws.outside + '/../ws/logs')).toBe('The workspace root is empty.');
  });
});
