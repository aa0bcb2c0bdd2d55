/** How the Pyodide child is started: what it may read, with which flags, and where the desktop app keeps it. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEntry, childReads, permissionArgs, pythonLaunch, readOnlyRoots, unpacked } from '../../../../electron/engine/sandbox/python/py-launch.js';
import { pyodideDir } from '../../../../electron/engine/sandbox/python/py-runtime.js';
import { detectShellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';

describe('the Python child launch', () => {
  it('disables code generation from strings and, in bubblewrap, clears the environment and shares no network', () => {
    const launch = pythonLaunch();
    expect(launch.args).toContain('--disallow-code-generation-from-strings');
    expect(launch.env).not.toHaveProperty('PATH');
    if (launch.containment === 'bubblewrap') {
      expect(launch.args).toEqual(expect.arrayContaining(['--unshare-all', '--clearenv', '--die-with-parent']));
      expect(launch.args.indexOf('--remount-ro')).toBeLessThan(launch.args.indexOf('--'));
    }
  });

  it('runs under Node\'s permission model in both configurations: reads of its own and Pyodide\'s files, workers, nothing else', () => {
    for (const sandbox of [undefined, detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } })]) {
      const launch = pythonLaunch(sandbox);
      const node = launch.args.slice(launch.containment === 'bubblewrap' ? launch.args.indexOf('--') + 2 : 0);
      expect(node).toContain(process.version.startsWith('v20.') ? '--experimental-permission' : '--permission');
      expect(node).toContain('--allow-worker');
      for (const flag of ['--allow-fs-write', '--allow-child-process', '--allow-addons', '--allow-wasi']) {
        expect(node.some((a) => a.startsWith(flag)), flag).toBe(false);
      }
      const reads = node.filter((a) => a.startsWith('--allow-fs-read=')).map((a) => a.slice('--allow-fs-read='.length));
      expect(reads).toEqual(childReads(childEntry().file));
      expect(reads).toContain(path.dirname(childEntry().file));
      expect(reads).toContain(pyodideDir());
      for (const read of reads) expect(['/', '/home', '/root', '/tmp', '/proc', realpathSync(process.cwd())]).not.toContain(read);
    }
    expect(pythonLaunch(detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } })).containment).toBe('process');
  });

  it('picks the permission switch by the Node version, and refuses a Node without one', () => {
    expect(permissionArgs('v20.20.2', ['/a'])).toEqual(['--experimental-permission', '--allow-fs-read=/a', '--allow-worker']);
    expect(permissionArgs('v22.12.0', ['/a'])[0]).toBe('--experimental-permission');
    expect(permissionArgs('v22.13.0', ['/a'])[0]).toBe('--permission');
    expect(permissionArgs('v23.5.0', [])[0]).toBe('--permission');
    expect(permissionArgs('v24.1.0', [])[0]).toBe('--permission');
    expect(() => permissionArgs('v18.19.0', [])).toThrow(/needs Node\.js 20 or later/);
  });

  it('shows the child only its own folder, Pyodide\'s and Node\'s in bubblewrap, never the folder above them', () => {
    const roots = readOnlyRoots(childEntry().file);
    expect(roots).toContain(path.dirname(childEntry().file));
    expect(roots.some((r) => pyodideDir().startsWith(r + path.sep))).toBe(true);
    for (const root of roots) expect(['/', '/home', '/root', '/tmp']).not.toContain(root);
  });

  it('finds the desktop app\'s unpacked copy beside app.asar, and leaves other paths alone', () => {
    expect(unpacked('/opt/Parallax/resources/app.asar/dist/worker/python-child.js')).toBe('/opt/Parallax/resources/app.asar.unpacked/dist/worker/python-child.js');
    expect(unpacked('/home/user/parallax/dist/worker/python-child.js')).toBe('/home/user/parallax/dist/worker/python-child.js');
  });
});
