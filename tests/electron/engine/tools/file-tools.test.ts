/** list_dir, read_file and write_file against a real temp workspace, through invokeTool as the modes call them. */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
  writeFileSync(path.join(ws.root, 'b.txt'), 'line 1\nERROR two\n');
  writeFileSync(path.join(ws.root, 'a.txt'), 'héllo');
  mkdirSync(path.join(ws.root, 'logs'));
  writeFileSync(path.join(ws.root, 'logs', 'app.log'), 'x');
  writeFileSync(path.join(ws.outside, 'secret.txt'), 'top secret');
});
afterEach(() => ws.cleanup());

const call = (name: string, args: unknown, limits?: Parameters<typeof contextFor>[1]) =>
  invokeTool(findTool(name)!, args, contextFor(ws.root, limits));
const failure = async (name: string, args: unknown, limits?: Parameters<typeof contextFor>[1]): Promise<string> => {
  const error = await call(name, args, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as ToolError).message;
};

describe('list_dir', () => {
  it('lists sorted names with folders marked, defaulting to the root', async () => {
    symlinkSync('logs', path.join(ws.root, 'z-link'));
    expect(await call('list_dir', {})).toEqual(['a.txt', 'b.txt', 'logs/', 'z-link/']);
    expect(await call('list_dir', { path: 'logs' })).toEqual(['app.log']);
  });

  it('explains a missing folder or a file given as a folder', async () => {
    expect(await failure('list_dir', { path: 'nope' })).toMatch(/No folder at "nope".*contains: a\.txt/);
    expect(await failure('list_dir', { path: 'a.txt' })).toContain('is a file, not a folder');
  });

  it('refuses a symlinked folder that points outside', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    expect(await failure('list_dir', { path: 'out' })).toContain('points outside the workspace');
  });
});

describe('read_file', () => {
  it('returns the text of a UTF-8 file', async () => {
    expect(await call('read_file', { path: 'a.txt' })).toBe('héllo');
    expect(await call('read_file', ['logs/app.log'])).toBe('x');
  });

  it('refuses escapes: ../, absolute paths, symlinks out', async () => {
    expect(await failure('read_file', { path: '../outside/secret.txt' })).toContain('outside the workspace');
    expect(await failure('read_file', { path: '/etc/passwd' })).toContain('is absolute');
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'leak.txt'));
    const message = await failure('read_file', { path: 'leak.txt' });
    expect(message).toContain('symbolic link');
    expect(message).not.toContain('top secret');
  });

  it('refuses binary files, huge files and folders with what to do instead', async () => {
    writeFileSync(path.join(ws.root, 'img.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    writeFileSync(path.join(ws.root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(path.join(ws.root, 'big.txt'), 'y'.repeat(2048));
    expect(await failure('read_file', { path: 'img.bin' })).toMatch(/not a UTF-8 text file.*run_shell/);
    expect(await failure('read_file', { path: 'latin1.txt' })).toContain('not a UTF-8 text file');
    expect(await failure('read_file', { path: 'big.txt' }, { readFileMaxBytes: 1024 })).toMatch(
      /2 KB, over read_file's 1 KB limit.*head/,
    );
    expect(await failure('read_file', { path: 'logs' })).toContain('is a folder');
    expect(await failure('read_file', { path: 'missing.txt' })).toMatch(/No file at "missing.txt".*b\.txt/);
  });
});

describe('write_file', () => {
  it('writes, creates parent folders and reports the UTF-8 byte count', async () => {
    expect(await call('write_file', { path: 'out/deep/r.md', content: 'héllo' })).toBe(
      'Wrote 6 bytes to out/deep/r.md',
    );
    expect(readFileSync(path.join(ws.root, 'out/deep/r.md'), 'utf8')).toBe('héllo');
    expect(await call('write_file', { path: 'a.txt', content: '' })).toBe('Wrote 0 bytes to a.txt');
    expect(readFileSync(path.join(ws.root, 'a.txt'), 'utf8')).toBe('');
  });

  it('refuses escapes and leaves the outside untouched', async () => {
    expect(await failure('write_file', { path: '../outside/x.txt', content: 'x' })).toContain('outside the workspace');
    expect(await failure('write_file', { path: '/tmp/x.txt', content: 'x' })).toContain('is absolute');
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    expect(await failure('write_file', { path: 'out/new/x.txt', content: 'x' })).toContain('symbolic link');
    symlinkSync(path.join(ws.outside, 'planted.txt'), path.join(ws.root, 'dangling.txt'));
    expect(await failure('write_file', { path: 'dangling.txt', content: 'x' })).toContain('symbolic link');
    expect(existsSync(path.join(ws.outside, 'new'))).toBe(false);
    expect(existsSync(path.join(ws.outside, 'planted.txt'))).toBe(false);
  });

  it('explains writing to a folder or under a file', async () => {
    expect(await failure('write_file', { path: 'logs', content: 'x' })).toContain('is a folder');
    expect(await failure('write_file', { path: 'a.txt/inner.txt', content: 'x' })).toContain('existing file');
    expect(readFileSync(path.join(ws.root, 'a.txt'), 'utf8')).toBe('héllo');
  });
});
