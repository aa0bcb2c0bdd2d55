/** What validators read of a run's workspace: regular files only, through no link, size-capped; anything else says what it is. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JudgedFileError, readJudgedFile } from '../../../electron/tasks/judged-file.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';

let ws: string;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'parallax-judged-'));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

describe('readJudgedFile', () => {
  it('reads a regular file, and refuses a FIFO, a device link, a folder link on the way and a file past the cap, each saying what it is', async () => {
    mkdirSync(join(ws, 'people'));
    writeFileSync(join(ws, 'people', 'a.json'), '{"name":"A"}');
    expect(await readJudgedFile(ws, 'people/a.json')).toBe('{"name":"A"}');
    execFileSync('mkfifo', [join(ws, 'pipe.log')]);
    await expect(readJudgedFile(ws, 'pipe.log')).rejects.toThrow(
      'pipe.log is a named pipe (FIFO), not a regular file: the validator reads regular files only',
    );
    symlinkSync('/dev/zero', join(ws, 'zero.log'));
    await expect(readJudgedFile(ws, 'zero.log')).rejects.toThrow('zero.log is a symbolic link, not a regular file');
    symlinkSync('/etc', join(ws, 'services'));
    await expect(readJudgedFile(ws, 'services/passwd')).rejects.toThrow(
      'services is a symbolic link, not a folder: the validator follows no link, so services/passwd cannot be checked',
    );
    writeFileSync(join(ws, 'big.log'), Buffer.alloc(2048, 'x'));
    await expect(readJudgedFile(ws, 'big.log', 1024)).rejects.toThrow(
      'big.log holds 2048 bytes, more than the validator reads (1024 bytes)',
    );
    await expect(readJudgedFile(ws, 'missing.log')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readJudgedFile(ws, 'missing.log')).rejects.not.toBeInstanceOf(JudgedFileError);
  });

  it('owner-chain and config-lookup validators: a link in place of a file the chain follows ends the check, saying so', async () => {
    await prepareFixture('owner-chain', ws);
    rmSync(join(ws, 'people'), { recursive: true });
    symlinkSync('/etc', join(ws, 'people'));
    const chain = await validateAnswer(resolveTask('owner-chain', { fixtureUrl: null }), 'x', { workspace: ws });
    expect(chain?.ok).toBe(false);
    expect(chain?.detail).toMatch(/^people is a symbolic link, not a folder/);
    const cfg = mkdtempSync(join(tmpdir(), 'parallax-judged-'));
    try {
      await prepareFixture('config-lookup', cfg);
      rmSync(join(cfg, 'config.json'));
      execFileSync('mkfifo', [join(cfg, 'config.json')]);
      const port = await validateAnswer(resolveTask('config-lookup', { fixtureUrl: null }), '8080', { workspace: cfg });
      expect(port?.detail).toMatch(/^config\.json is a named pipe \(FIFO\)/);
    } finally {
      rmSync(cfg, { recursive: true, force: true });
    }
  });
});
