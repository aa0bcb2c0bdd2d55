/** How the Pyodide child is started: what it may read, with which flags, and where the desktop app keeps it. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

// Pyodide is the child's to load (py-runtime.ts): the launcher, which every engine loads before its first
// request, finds its folder without it.
const pyodide = vi.hoisted(() => ({ loaded: false }));
vi.mock('pyodide', async (original) => {
  pyodide.loaded = true;
  return original();
});
import {
  checkChildNode,
  childBinds,
  childEntry,
  childReads,
  childRuntime,
  permissionArgs,
  PY_SEATBELT_PROFILE,
  pythonLaunch,
  readOnlyRoots,
  unpacked,
} from '../../../../electron/engine/sandbox/python/py-launch.js';
import { pyodideDir } from '../../../../electron/engine/sandbox/python/py-dir.js';
import { detectShellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { layoutFor } from '../../../../electron/engine/app-layout.js';

describe('the Python child launch', () => {
  it('is planned without loading Pyodide: its folder is found from its package, Pyodide itself loads in the child', () => {
    expect(pythonLaunch().args.length).toBeGreaterThan(0);
    expect(readOnlyRoots().some((r) => pyodideDir().startsWith(r + path.sep))).toBe(true);
    expect(pyodide.loaded).toBe(false);
  });

  it('disables code generation from strings and, in bubblewrap, clears the environment and shares no network', () => {
    const launch = pythonLaunch();
    expect(launch.args).toContain('--disallow-code-generation-from-strings');
    expect(launch.env).not.toHaveProperty('PATH');
    if (launch.containment === 'bubblewrap') {
      expect(launch.args).toEqual(expect.arrayContaining(['--unshare-all', '--clearenv', '--die-with-parent']));
      expect(launch.args.indexOf('--remount-ro')).toBeLessThan(launch.args.indexOf('--'));
    }
  });

  it("runs under Node's permission model in both configurations: reads of its own and Pyodide's files, workers, nothing else", () => {
    for (const sandbox of [undefined, detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } })]) {
      const launch = pythonLaunch({ sandbox });
      const node = launch.args.slice(launch.containment === 'process' ? 0 : launch.args.indexOf('--') + 2);
      expect(node).toContain(process.version.startsWith('v20.') ? '--experimental-permission' : '--permission');
      expect(node).toContain('--allow-worker');
      for (const flag of ['--allow-fs-write', '--allow-child-process', '--allow-addons', '--allow-wasi']) {
        expect(
          node.some((a) => a.startsWith(flag)),
          flag,
        ).toBe(false);
      }
      const reads = node.filter((a) => a.startsWith('--allow-fs-read=')).map((a) => a.slice('--allow-fs-read='.length));
      expect(reads).toEqual(childReads(childEntry().file));
      expect(reads).toContain(path.dirname(childEntry().file));
      // Pyodide through the bundle folder's own link, so one folder is allowed in all.
      expect(realpathSync(path.join(path.dirname(childEntry().file), 'node_modules', 'pyodide'))).toBe(
        realpathSync(pyodideDir()),
      );
      for (const read of reads)
        expect(['/', '/home', '/root', '/tmp', '/proc', realpathSync(process.cwd())]).not.toContain(read);
    }
  });

  it('without bubblewrap: its own empty network by unshare on Linux, a no-network Seatbelt profile on macOS, else the process alone', () => {
    const off = detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } });
    const netns = pythonLaunch({ sandbox: { ...off, unshare: '/usr/bin/unshare' } });
    expect(netns.containment).toBe('netns');
    expect(netns.command).toBe('/usr/bin/unshare');
    // No --fork: unshare becomes the child, so the pid the host watches and kills is the child's own.
    expect(netns.args.slice(0, netns.args.indexOf('--'))).toEqual(['--user', '--net', '--ipc']);
    expect(netns.args[netns.args.indexOf('--') + 1]).toBe(process.execPath);
    const mac = pythonLaunch({
      sandbox: { kind: 'seatbelt', reason: '', sandboxExec: '/usr/bin/sandbox-exec', prlimit: null },
    });
    expect(mac.containment).toBe('seatbelt');
    expect(mac.args.slice(0, 2)).toEqual(['-p', PY_SEATBELT_PROFILE]);
    expect(PY_SEATBELT_PROFILE).toMatch(/\(deny network\*\)\s*$/);
    expect(pythonLaunch({ sandbox: { ...off, unshare: null } }).containment).toBe('process');
    // What this machine offers without bubblewrap: unshare when an unprivileged namespace can be made here.
    expect(pythonLaunch({ sandbox: off }).containment).toBe(off.unshare ? 'netns' : 'process');
  });

  it('picks the permission switch by the Node version, and refuses a Node without one', () => {
    expect(permissionArgs('v20.20.2', ['/a'])).toEqual([
      '--experimental-permission',
      '--allow-fs-read=/a',
      '--allow-worker',
    ]);
    expect(permissionArgs('v22.12.0', ['/a'])[0]).toBe('--experimental-permission');
    expect(permissionArgs('v22.13.0', ['/a'])[0]).toBe('--permission');
    expect(permissionArgs('v23.5.0', [])[0]).toBe('--permission');
    expect(permissionArgs('v24.1.0', [])[0]).toBe('--permission');
    expect(() => permissionArgs('v18.19.0', [])).toThrow(/needs Node\.js 20 or later/);
  });

  it("shows the child only Parallax's own folder, node_modules and its own entry's folder, never the folder above them", () => {
    const roots = readOnlyRoots();
    const project = realpathSync(process.cwd());
    expect(roots).toContain(project);
    expect(roots).toContain(path.dirname(childEntry().file));
    expect(roots.some((r) => pyodideDir().startsWith(r + path.sep))).toBe(true);
    for (const root of roots) expect(['/', '/home', '/root', '/tmp']).not.toContain(root);
  });

  it("finds the desktop app's unpacked copy beside app.asar, and leaves other paths alone", () => {
    expect(unpacked('/opt/Parallax/resources/app.asar/dist/worker/python-child.js')).toBe(
      '/opt/Parallax/resources/app.asar.unpacked/dist/worker/python-child.js',
    );
    expect(unpacked('/home/user/parallax/dist/worker/python-child.js')).toBe(
      '/home/user/parallax/dist/worker/python-child.js',
    );
  });

  it("binds the bundled child's folder and Pyodide only, where the resolver looks, from their real paths", () => {
    const layout = layoutFor(pathToFileURL(path.join(process.cwd(), 'dist/worker/chunk-x.js')).href, true);
    const binds = childBinds(layout, '/usr/bin/node');
    expect(binds.map((b) => b.target)).toEqual([
      path.join(process.cwd(), 'dist/worker'),
      path.join(process.cwd(), 'node_modules/pyodide'),
    ]);
    expect(binds[1]!.source).toBe(realpathSync(pyodideDir()));
  });
});

describe('which binary runs the Python child', () => {
  const noNode = { ...process.env, PATH: '/nonexistent' };

  it("in the desktop app, with no node on PATH: the app's own binary as Node (runAsNode fuse on), never a search of PATH", () => {
    const saved = process.env.PATH;
    process.env.PATH = noNode.PATH;
    try {
      const proc = {
        execPath: '/opt/Parallax/parallax-desktop',
        versions: { ...process.versions, electron: '40.10.2', node: '24.11.1' },
      };
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
