/**
 * The child's start-up check that Node's permission model holds for the folders it was given: on Node 20 some
 * layouts of allowed folders let `/` (or a folder where their paths branch) be listed; the child must then
 * refuse to start, naming the folder, and otherwise start as usual.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEntry, childReads, pythonLaunch } from '../../../../electron/engine/sandbox/python/py-launch.js';
import {
  allowedReads,
  foldersAbove,
  permissionFault,
} from '../../../../electron/engine/sandbox/python/py-permission-check.js';
import { detectShellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';

const denied = (): never => {
  throw Object.assign(new Error('denied'), { code: 'ERR_ACCESS_DENIED' });
};

describe('the permission check', () => {
  it('lists every folder above the allowed ones, up to the root, and none inside them', () => {
    expect(foldersAbove(['/opt/p/dist/worker', '/opt/p/node_modules/pyodide'])).toEqual([
      '/',
      '/opt',
      '/opt/p',
      '/opt/p/dist',
      '/opt/p/node_modules',
    ]);
    expect(foldersAbove(['/a', '/a/b/c'])).toEqual(['/']);
  });

  it('passes when each of them is refused, and names each that is listed or fails for another reason', () => {
    const argv = ['--no-warnings', '--allow-fs-read=/x/a', '--allow-fs-read=/y/b'];
    expect(allowedReads(argv)).toEqual(['/x/a', '/y/b']);
    expect(permissionFault(argv, 'v20.0.0', denied)).toBeNull();
    const fault = permissionFault(argv, 'v20.0.0', (dir) =>
      dir === '/'
        ? []
        : dir === '/y'
          ? (() => {
              throw Object.assign(new Error('gone'), { code: 'ENOENT' });
            })()
          : denied(),
    );
    expect(fault).toMatch(
      /^Node\.js v20\.0\.0's permission model let the sandbox list \/, \/y, outside the folders it may read \(\/x\/a, \/y\/b\)/,
    );
    expect(fault).toMatch(/does not start on it\. Run Parallax with another Node\.js version/);
    expect(permissionFault(['--no-warnings'], 'v20.0.0', () => [])).toBeNull();
  });

  it('the launch gives the child as few folders as it needs, none inside another', () => {
    const reads = childReads(childEntry().file);
    for (const r of reads) expect(reads.filter((o) => o !== r && r.startsWith(o + path.sep))).toEqual([]);
    // From the sources the bundle's folder reaches Pyodide through its own link: one folder in all.
    expect(reads).toEqual([path.dirname(childEntry().file)]);
  });
});

/** Whether plain Node, under these read flags, lets a program list `/`. */
function rootListable(reads: readonly string[]): boolean {
  const flag = process.version.startsWith('v20.') ? '--experimental-permission' : '--permission';
  const probe = "try { require('fs').readdirSync('/'); console.log('listed') } catch (e) { console.log(e.code) }";
  return (
    spawnSync(process.execPath, [flag, ...reads.map((r) => `--allow-fs-read=${r}`), '-e', probe], {
      encoding: 'utf8',
    }).stdout.trim() === 'listed'
  );
}

describe.each([
  { name: 'as found here', sandbox: undefined },
  { name: 'with PARALLAX_SANDBOX=off', sandbox: detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } }) },
])('the real child, $name', ({ sandbox }) => {
  it('refuses to start where its folders make the permission model leak, and says which folder', async () => {
    const launch = pythonLaunch({ sandbox });
    // Two more allowed folders, each under another top-level folder: a layout that leaks `/` on Node 20.
    const extra = ['/etc/ssl', '/usr/share/zoneinfo'];
    const at = launch.args.findIndex((a) => a.startsWith('--allow-fs-read='));
    const args = [...launch.args.slice(0, at), ...extra.map((r) => `--allow-fs-read=${r}`), ...launch.args.slice(at)];
    const reads = [...extra, ...childReads(childEntry().file)];
    const leaks = rootListable(reads);
    const child = spawn(launch.command, args, { env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('"ready"')) child.stdin.end();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const first = JSON.parse(out.split('\n')[0] || 'null') as { type: string; message?: string } | null;
    if (leaks) {
      expect(first?.type).toBe('failed');
      expect(first?.message).toMatch(/permission model let the sandbox list (.*, )?\/(,|\s)/);
      expect(code).toBe(1);
    } else {
      expect(first?.type).toBe('ready');
    }
  });
});
