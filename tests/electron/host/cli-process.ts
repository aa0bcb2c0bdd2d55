/** Runs the real `parallax` CLI from source in a child process, for the CLI tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBuild } from '../../../electron/engine/fresh-build.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const source = fileURLToPath(new URL('../../../electron/cli/main.ts', import.meta.url));
const built = fileURLToPath(new URL('../../../dist/electron/cli/main.js', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** The build's CLI when a build newer than every source has it (npm test builds first), else the sources. */
export const fromBuild =
  freshBuild(root, fileURLToPath(new URL('../../../dist/worker/worker-main.js', import.meta.url))) && existsSync(built);
/** For bin/parallax.js (which takes any dist it finds): the sources unless the build is fresh. */
export const sourceUnlessFresh: Readonly<Record<string, string>> = fromBuild ? {} : { PARALLAX_FROM_SOURCE: '1' };
/**
 * The CLI as a user starts it: bin/parallax.js, which runs the build's bundle (its CommonJS script with the code
 * cache) when the build is fresh; else the sources.
 */
export const cliArgv: readonly string[] = fromBuild ? [join(root, 'bin', 'parallax.js')] : ['--import', tsx, source];
/**
 * The CLI module by module (tsc's output or the sources), not the bundle, so that a load probe sees each module's
 * own name: as argv, and as one path.
 */
export const cliModuleArgv: readonly string[] = fromBuild ? [built] : ['--import', tsx, source];
export const cliModules: string = fromBuild ? built : source;

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `group`: run it in its own process group, so a test can signal the group the way a terminal's Ctrl+C does. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  group = false,
): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [...cliArgv, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output.stderr += c));
  return Object.assign(child, { output });
}

export function exited(child: ReturnType<typeof startCli>): Promise<CliResult> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve({ code: child.exitCode, ...child.output });
    child.on('close', (code) => resolve({ code, ...child.output }));
  });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return exited(startCli(args, env));
}
