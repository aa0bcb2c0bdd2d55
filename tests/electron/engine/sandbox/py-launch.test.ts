/** How the Pyodide child is started: what it may read, with which flags, and where the desktop app keeps it. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEntry, pythonLaunch, readOnlyRoots, unpacked } from '../../../../electron/engine/sandbox/python/py-launch.js';
import { pyodideDir } from '../../../../electron/engine/sandbox/python/py-runtime.js';

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

  it('shows the child only Parallax\'s own folder and node_modules, never the folder above them', () => {
    const roots = readOnlyRoots(childEntry().file);
    const project = realpathSync(process.cwd());
    expect(roots).toContain(project);
    expect(roots.some((r) => pyodideDir().startsWith(r + path.sep))).toBe(true);
    expect(roots).not.toContain(path.dirname(project));
    for (const root of roots) expect(['/', '/home', '/root', '/tmp']).not.toContain(root);
  });

  it('finds the desktop app\'s unpacked copy beside app.asar, and leaves other paths alone', () => {
    expect(unpacked('/opt/Parallax/resources/app.asar/dist/worker/python-child.js')).toBe('/opt/Parallax/resources/app.asar.unpacked/dist/worker/python-child.js');
    expect(unpacked('/home/user/parallax/dist/worker/python-child.js')).toBe('/home/user/parallax/dist/worker/python-child.js');
  });
});
