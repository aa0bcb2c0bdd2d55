/** Tool errors the tools did not explain themselves: said in words, with no internal path in them. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTool, invokeTool, unexpectedErrorText } from '../../../../electron/engine/tools/index.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeEach(() => (ws = tempWorkspace()));
afterEach(() => ws.cleanup());

const fail = (tool: string, args: unknown) =>
  invokeTool(findTool(tool)!, args, contextFor(ws.root)).then(
    () => '',
    (e: Error) => e.message,
  );

describe('system errors in tool results', () => {
  it.each([
    ['read_file', { path: 'a'.repeat(300) }],
    ['write_file', { path: `d/${'b'.repeat(300)}/x.txt`, content: 'hi' }],
    ['list_dir', { path: 'c'.repeat(300) }],
  ])(
    '%s with a 300-character name: ENAMETOOLONG in words, no /proc/self/fd/N/ path and no workspace path',
    async (tool, args) => {
      const message = await fail(tool, args);
      expect(message).toMatch(/too long|No folder|not found/i);
      expect(message).not.toMatch(/\/proc\/(self|\d+)\/fd/);
      expect(message).not.toContain(ws.root);
    },
  );

  it('unexpectedErrorText: known codes in words, internal paths taken out of other messages', () => {
    const errno = Object.assign(new Error("ENAMETOOLONG: name too long, lstat '/proc/self/fd/29/aaa'"), {
      code: 'ENAMETOOLONG',
    });
    expect(unexpectedErrorText(errno, '/ws')).toBe(
      'ENAMETOOLONG: a name in the path is too long (at most 255 bytes per name and 4096 for the whole path). Use shorter names.',
    );
    const other = Object.assign(new Error("EIO: i/o error, read '/proc/self/fd/31/sub/f.txt' under /home/u/ws/sub"), {
      code: 'EIO',
    });
    expect(unexpectedErrorText(other, '/home/u/ws')).toBe("EIO: i/o error, read 'sub/f.txt' under ./sub");
  });
});
