/**
 * A plain `--help` is printed from the text the build recorded beside the bundle (help.json), and only when it
 * is what commander would print: the same arguments at commander's default width. Anything else, or a missing
 * or damaged file, leaves the help to commander.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpKey, staticHelp } from '../../../electron/cli/static-help.js';

async function helpFile(content: string): Promise<URL> {
  const file = join(await mkdtemp(join(tmpdir(), 'parallax-static-help-')), 'help.json');
  await writeFile(file, content);
  return pathToFileURL(file);
}

describe('static help', () => {
  it('answers the program and each command asked plainly for help, and nothing else', () => {
    expect(helpKey(['--help'])).toBe('');
    expect(helpKey(['-h'])).toBe('');
    expect(helpKey(['run', '--help'])).toBe('run');
    expect(helpKey(['sim-server', '-h'])).toBe('sim-server');
    for (const args of [
      [],
      ['run'],
      ['--help', 'run'],
      ['run', '--task', '--help'],
      ['prices', 'set', '--help'],
      ['--version'],
      ['../x', '--help'],
    ])
      expect(helpKey(args), args.join(' ')).toBeNull();
  });

  it('prints the recorded text at 80 columns or into a pipe; another width, key or file goes to commander', async () => {
    const file = await helpFile(JSON.stringify({ '': 'Usage: parallax\n', run: 'Usage: parallax run\n', bad: 3 }));
    expect(staticHelp(['--help'], file, undefined)).toBe('Usage: parallax\n');
    expect(staticHelp(['run', '-h'], file, 80)).toBe('Usage: parallax run\n');
    expect(staticHelp(['run', '--help'], file, 120)).toBeNull();
    expect(staticHelp(['compare', '--help'], file, undefined)).toBeNull();
    expect(staticHelp(['bad', '--help'], file, undefined)).toBeNull();
    expect(staticHelp(['constructor', '--help'], file, undefined)).toBeNull();
    expect(staticHelp(['run', '--task', 'x'], file, undefined)).toBeNull();
    expect(staticHelp(['--help'], await helpFile('{"": "Usage'), undefined)).toBeNull();
    expect(staticHelp(['--help'], new URL('no-such-help.json', file), undefined)).toBeNull();
  });
});
