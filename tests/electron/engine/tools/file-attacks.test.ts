/**
 * Attacks on the file tools by a model that can also run commands (run_shell where no OS sandbox exists): a
 * hard link to a file outside, special files that hang or have side effects, and a folder swapped for a
 * symbolic link while the tool walks the path. What must not happen: any byte read from or written to
 * the outside file, a tool call that hangs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
  writeFileSync(path.join(ws.outside, 'secret.txt'), 'TOP SECRET');
});
afterEach(() => ws.cleanup());

const call = (name: string, args: unknown, signal?: AbortSignal) =>
  invokeTool(findTool(name)!, args, contextFor(ws.root, undefined, signal));
const failure = async (name: string, args: unknown): Promise<string> => {
  const error = await call(name, args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as ToolError).message;
};

describe('hard links to a file outside the workspace', () => {
  it('ln ../outside/secret.txt leak.txt: read_file and write_file refuse it, the outside file is untouched', async () => {
    linkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'leak.txt'));
    const read = await failure('read_file', { path: 'leak.txt' });
    expect(read).toContain('has 2 hard links');
    expect(read).not.toContain('TOP SECRET');
    expect(await failure('write_file', { path: 'leak.txt', content: 'overwritten' })).toContain('hard links');
    expect(readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
  });
});

describe('special files', () => {
  it('mkfifo pipe; read_file("pipe") is refused at once instead of waiting for a writer forever', async () => {
    const pipe = path.join(ws.root, 'pipe');
    execFileSync('mkfifo', [pipe]);
    // Without a writer, opening the pipe would wait forever (past the test's own timeout): these answer by refusal.
    expect(await failure('read_file', { path: 'pipe' })).toContain('named pipe (FIFO), not a regular file');
    expect(await failure('write_file', { path: 'pipe', content: 'x' })).toContain('named pipe (FIFO)');
    // Nobody holds it open for reading, nor waits in open() for a writer: a non-blocking writer finds no reader.
    let opened: number | null = null;
    const noReader = (() => {
      try {
        opened = openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
        return null;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code;
      }
    })();
    if (opened !== null) closeSync(opened);
    expect(noReader).toBe('ENXIO');
  });

  it('a unix socket in the workspace is refused by read_file and write_file', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws.root, 'sock'), resolve));
    try {
      expect(await failure('read_file', { path: 'sock' })).toContain('is a socket, not a regular file');
      expect(await failure('write_file', { path: 'sock', content: 'x' })).toContain('is a socket');
    } finally {
      server.close();
    }
  });

  it.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
    'a device node (mknod c 1 5, /dev/zero) is refused before it is opened',
    async () => {
      execFileSync('mknod', [path.join(ws.root, 'zero'), 'c', '1', '5']);
      expect(await failure('read_file', { path: 'zero' })).toContain('is a device, not a regular file');
    },
  );

  it('list_dir of a FIFO says what it is', async () => {
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    expect(await failure('list_dir', { path: 'pipe' })).toContain('is a named pipe (FIFO), not a folder');
  });
});

describe('names that start with dots', () => {
  it('..notes.txt, .env.example and a folder named ..data are names, not escapes', async () => {
    expect(await call('write_file', { path: '..notes.txt', content: 'n' })).toBe('Wrote 1 bytes to ..notes.txt');
    expect(await call('write_file', { path: '.env.example', content: 'E=1' })).toBe('Wrote 3 bytes to .env.example');
    expect(await call('write_file', { path: '..data/x.txt', content: 'x' })).toBe('Wrote 1 bytes to ..data/x.txt');
    expect(await call('read_file', { path: '..notes.txt' })).toBe('n');
    expect(await call('list_dir', {})).toEqual(['..data/', '..notes.txt', '.env.example']);
    expect(readFileSync(path.join(ws.root, '..notes.txt'), 'utf8')).toBe('n');
    expect(existsSync(path.join(ws.root, '..', 'notes.txt'))).toBe(false);
    // Only a `..` component climbs.
    expect(await failure('write_file', { path: '../notes.txt', content: 'x' })).toContain(
      'leads outside the workspace',
    );
  });
});

describe('listing', () => {
  it('a link to a folder outside is listed as a plain name: the listing says nothing about what lies outside', async () => {
    mkdirSync(path.join(ws.root, 'logs'));
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    symlinkSync('logs', path.join(ws.root, 'in'));
    expect(await call('list_dir', {})).toEqual(['in/', 'logs/', 'out']);
  });
});

/**
 * A second process swaps `d` between a real folder (holding an innocent secret.txt) and a link to the outside
 * folder as fast as it can, while the tools read and write `d/secret.txt`. A check-then-open tool loses this
 * race now and then; a walk through open folder handles never does.
 */
describe('racing a folder ↔ symbolic link swap', () => {
  let swapper: ChildProcess | null = null;
  afterEach(() => {
    swapper?.kill('SIGKILL');
    swapper = null;
  });

  function startSwapping(): Promise<void> {
    mkdirSync(path.join(ws.root, 'd'));
    writeFileSync(path.join(ws.root, 'd', 'secret.txt'), 'inside');
    symlinkSync(ws.outside, path.join(ws.root, 'evil'));
    const script = `
      const fs = require('node:fs');
      process.chdir(${JSON.stringify(ws.root)});
      process.send('go');
      for (;;) {
        try { fs.renameSync('d', 'real'); fs.renameSync('evil', 'd'); fs.renameSync('d', 'evil'); fs.renameSync('real', 'd'); } catch {}
      }`;
    swapper = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    return new Promise((resolve) => swapper!.once('message', () => resolve()));
  }

  it('300 reads of d/secret.txt while d flips never return the outside file', async () => {
    await startSwapping();
    const outcomes = { inside: 0, refused: 0 };
    for (let i = 0; i < 300; i++) {
      const result = await call('read_file', { path: 'd/secret.txt' }).then(
        (text) => text,
        (error: unknown) => {
          expect(error).toBeInstanceOf(ToolError);
          return null;
        },
      );
      expect(result).not.toBe('TOP SECRET');
      if (result === 'inside') outcomes.inside++;
      else outcomes.refused++;
    }
    // The race really ran: both outcomes happened.
    expect(outcomes.inside).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it('300 writes of d/new-N.txt while d flips never create a file outside', async () => {
    await startSwapping();
    for (let i = 0; i < 300; i++) {
      await call('write_file', { path: `d/new-${i}.txt`, content: 'x' }).catch((error: unknown) =>
        expect(error).toBeInstanceOf(ToolError),
      );
    }
    swapper?.kill('SIGKILL');
    const outside = execFileSync('ls', [ws.outside], { encoding: 'utf8' }).trim().split('\n');
    expect(outside).toEqual(['secret.txt']);
    expect(readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
  });
});
