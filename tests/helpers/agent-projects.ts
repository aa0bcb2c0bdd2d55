/**
 * Agent projects laid out as users keep them, built in temp folders from real parts: a JavaScript project with
 * its script in src/ and its packages at the root (openai installed by npm from a tarball packed from this
 * repository's own copy, offline; tsx and esbuild copied as npm installs them), a Python project with a
 * virtual environment holding an installed package, and a version manager's shim (a script, as pyenv's) in
 * front of a Python installed outside the system folders.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const NODE_EXAMPLE = join(REPO, 'examples/agents/node');
const TUTORIAL = join(REPO, 'examples/tutorial');

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
    cwd,
    stdio: 'pipe',
    encoding: 'utf8',
  });

/** A package copied from this repository's node_modules, as npm lays it out. */
function copyPackage(project: string, name: string): void {
  cpSync(join(REPO, 'node_modules', name), join(project, 'node_modules', name), { recursive: true, dereference: true });
}

/**
 * my-agent/{package.json, src/agent.mjs, src/agent.ts, node_modules/{openai, tsx, esbuild, @esbuild/<platform>}}:
 * the example agent's sources, openai installed by `npm install` of a packed tarball, tsx's bin linked.
 */
export function jsProject(root: string): string {
  const project = join(root, 'my-agent');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'my-agent', private: true, type: 'module' }, null, 2),
  );
  for (const f of ['agent.mjs', 'agent.ts']) cpSync(join(NODE_EXAMPLE, 'src', f), join(project, 'src', f));
  const packed = join(root, 'packs');
  mkdirSync(packed);
  const tarball = npm(['pack', join(REPO, 'node_modules/openai'), '--pack-destination', packed], root)
    .trim()
    .split('\n')
    .pop()!;
  npm(['install', join(packed, tarball)], project);
  for (const name of ['tsx', 'esbuild', `@esbuild/${process.platform}-${process.arch}`]) copyPackage(project, name);
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync('../tsx/dist/cli.mjs', join(project, 'node_modules', '.bin', 'tsx'));
  return project;
}

/** The system's Python (a real binary in the system folders) that the layouts below build on. */
export const SYSTEM_PYTHON = realpathSync('/usr/bin/python3');
const pyVersion = () =>
  execFileSync(SYSTEM_PYTHON, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();

/**
 * py-agent/{pyproject.toml, agent.py, .venv}: a virtual environment made by `python -m venv` with a package
 * (agenttools: the tools and the loop) installed in its site-packages, so agent.py runs only with the venv's python.
 */
export function venvProject(root: string): string {
  const project = join(root, 'py-agent');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'pyproject.toml'),
    '[project]\nname = "py-agent"\nversion = "0.1.0"\ndependencies = ["agenttools"]\n',
  );
  execFileSync(SYSTEM_PYTHON, ['-m', 'venv', '--without-pip', join(project, '.venv')]);
  const site = join(project, '.venv', 'lib', `python${pyVersion()}`, 'site-packages');
  mkdirSync(join(site, 'agenttools'), { recursive: true });
  cpSync(join(TUTORIAL, 'common.py'), join(site, 'agenttools', '__init__.py'));
  mkdirSync(join(site, 'agenttools-0.1.0.dist-info'));
  writeFileSync(
    join(site, 'agenttools-0.1.0.dist-info', 'METADATA'),
    'Metadata-Version: 2.1\nName: agenttools\nVersion: 0.1.0\n',
  );
  writeFileSync(join(site, 'agenttools-0.1.0.dist-info', 'INSTALLER'), 'pip\n');
  writeFileSync(join(site, 'agenttools-0.1.0.dist-info', 'RECORD'), 'agenttools/__init__.py,,\n');
  // The tutorial's ReAct agent, importing its loop from the installed package instead of a file beside it.
  writeFileSync(
    join(project, 'agent.py'),
    readFileSync(join(TUTORIAL, 'react_agent.py'), 'utf8').replace('from common import', 'from agenttools import'),
  );
  return project;
}

/**
 * tools/pyenv/{shims/python3, versions/X.Y/{bin/python3, lib/pythonX.Y}, version}: a shim script that picks the
 * version from a file and execs that installation's binary (a copy of the system's Python, its standard library
 * linked), as pyenv's shims do. Returns the shims folder (to put on PATH) and the installation's folder.
 */
export function pythonShim(root: string): { shims: string; install: string } {
  const manager = join(root, 'tools', 'pyenv');
  const version = pyVersion();
  const install = join(manager, 'versions', version);
  mkdirSync(join(install, 'bin'), { recursive: true });
  mkdirSync(join(install, 'lib'));
  cpSync(SYSTEM_PYTHON, join(install, 'bin', `python${version}`));
  symlinkSync(`python${version}`, join(install, 'bin', 'python3'));
  symlinkSync(`/usr/lib/python${version}`, join(install, 'lib', `python${version}`));
  writeFileSync(join(manager, 'version'), `${version}\n`);
  mkdirSync(join(manager, 'shims'));
  const shim = join(manager, 'shims', 'python3');
  writeFileSync(shim, `#!/bin/sh\nset -e\nexec "${manager}/versions/$(cat "${manager}/version")/bin/python3" "$@"\n`);
  chmodSync(shim, 0o755);
  return { shims: join(manager, 'shims'), install };
}

/** A plain script project of the tutorial's ReAct agent (its two files), for the shim layout. */
export function tutorialProject(root: string, name: string): string {
  const project = join(root, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'requirements.txt'), '');
  for (const f of ['common.py', 'react_agent.py']) cpSync(join(TUTORIAL, f), join(project, f));
  return project;
}
