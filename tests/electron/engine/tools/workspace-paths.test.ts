/**
 * The file tools as they walk where folders cannot be opened by handle (macOS, Windows): by path strings,
 * each folder checked to be a real folder first. Run here on Linux by switching to that walk. The same
 * escapes must be refused; only the swap race (file-attacks.test.ts) is not closed by this walk.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { usePathWalk } from '../../../../electron/engine/tools/workspace.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeAll(() => usePathWalk(true));
afterAll(() => usePathWalk(false));
beforeEach(() => {
  ws = tempWorkspace();
  mkdirSync(path.join(ws.root, 'logs'));
  writeFileSync(path.join(ws.root, 'logs', 'app.log'), 'log');
  writeFileSync(path.join(ws.outside, 'secret.txt'), 'TOP SECRET');
});
afterEach(() => ws.cleanup());

const call = (name: string, args: unknown) => invokeTool(findTool(name)!, args, contextFor(ws.root));
const failure = async (name: string, args: unknown): Promise<string> => {
  const error = await call(name, args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as ToolError).message;
};

describe('file tools walking by path', () => {
  it('read, write (creating folders) and list inside the workspace, through links that stay inside', async () => {
    symlinkSync('logs', path.join(ws.root, 'in'));
    expect(await call('write_file', { path: 'out/deep/r.md', content: 'hé' })).toBe('Wrote 3 bytes to out/deep/r.md');
    expect(await call('read_file', { path: 'in/app.log' })).toBe('log');
    expect(await call('write_file', { path: 'in/new.txt', content: 'n' })).toBe('Wrote 1 bytes to in/new.txt');
    expect(readFileSync(path.join(ws.root, 'logs', 'new.txt'), 'utf8')).toBe('n');
    expect(await call('list_dir', {})).toEqual(['in/', 'logs/', 'out/']);
    expect(await call('list_dir', { path: 'in' })).toEqual(['app.log', 'new.txt']);
  });

  it('refuses links out, .. escapes, hard links, FIFOs; allows ..notes.txt', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    expect(await failure('read_file', { path: 'out/secret.txt' })).toContain('symbolic link that points outside');
    expect(await failure('write_file', { path: 'out/new.txt', content: 'x' })).toContain(
      'symbolic link that points outside',
    );
    expect(await failure('read_file', { path: '../outside/secret.txt' })).toContain('leads outside the workspace');
    linkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'hard.txt'));
    expect(await failure('read_file', { path: 'hard.txt' })).toContain('hard links');
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    expect(await failure('read_file', { path: 'pipe' })).toContain('named pipe (FIFO)');
    expect(await call('write_file', { path: '..notes.txt', content: 'ok' })).toBe('Wrote 2 bytes to ..notes.txt');
  });
});
