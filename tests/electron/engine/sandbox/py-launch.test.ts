/** How the Pyodide child is started: what it may read, with which flags, and where the desktop app keeps it. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkChildNode, childBinds, childRuntime, pythonLaunch, readOnlyRoots, unpacked } from '../../../../electron/engine/sandbox/python/py-launch.js';
import { pyodideDir } from '../../../../electron/engine/sandbox/python/py-runtime.js';
import { layoutFor } from '../../../../electron/engine/app-layout.js';

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
    const roots = readOnlyRoots();
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

  it('binds the bundled child\'s folder and Pyodide only, where the resolver looks, from their real paths', () => {
    const layout = layoutFor(pathToFileURL(path.join(process.cwd(), 'dist/worker/chunk-x.js')).href, true);
    const binds = childBinds(layout, '/usr/bin/node');
    expect(binds.map((b) => b.target)).toEqual([path.join(process.cwd(), 'dist/worker'), path.join(process.cwd(), 'node_modules/pyodide')]);
    expect(binds[1]!.source).toBe(realpathSync(pyodideDir()));
  });
});

describe('which binary runs the Python child', () => {
  const noNode = { ...process.env, PATH: '/nonexistent' };

  it('in the desktop app, with no node on PATH: the app\'s own binary as Node (runAsNode fuse on), never a search of PATH', () => {
    const saved = process.env.PATH;
    process.env.PATH = noNode.PATH;
    try {
      const proc = { execPath: '/opt/Parallax/parallax-desktop', versions: { ...process.versions, electron: '40.10.2', node: '24.11.1' } };
      expect(childRuntime(proc)).toEqual({ command: '/opt/Parallax/parallax-desktop', electronAsNode: true });
      const launch = pythonLaunch({ proc, sandbox: { kind: 'none' } as never });
      expect(launch.command).toBe('/opt/Parallax/parallax-desktop');
      expect(launch.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
      expect(launch.containment).toBe('process');
    } finally {
      process.env.PATH = saved;
    }
  });

  it('under plain Node (CLI, web host): that Node', () => {
    expect(childRuntime()).toEqual({ command: process.execPath, electronAsNode: false });
  });

  it('refuses a Node older than the bundle needs, naming the version needed and the one found', () => {
    expect(() => checkChildNode('18.19.1')).toThrow(/needs Node\.js 20\.19 or later .* this is Node\.js 18\.19\.1/);
    expect(() => checkChildNode('20.18.0')).toThrow(/20\.19/);
    expect(() => checkChildNode('20.19.0')).not.toThrow();
    expect(() => checkChildNode('22.0.0')).not.toThrow();
  });
});
