/**
 * `parallax start` (what `npm start` runs): the desktop app where there is a display and an Electron
 * binary (fetched on first use, since installs here skip the download), otherwise the main job headless —
 * a comparison of the log-stats task in every mode, stored in history, with the next steps printed.
 * The provider is the first preset whose key is in the environment, else the offline simulated model.
 */
import type { Command } from 'commander';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appLayout } from '../../engine/app-layout.js';
import { PROVIDER_PRESETS } from '../../../shared/providers.js';
import { say } from '../terminal.js';

interface StartFlags {
  headless?: boolean;
  task: string;
}

const appRoot = appLayout().appRoot;

export function register(program: Command): void {
  program
    .command('start')
    .description('open the desktop app, or on a machine without a display run a comparison headless')
    .option('--headless', 'do not open a window: run the comparison in the terminal')
    .option('--task <id or text>', 'the task for the headless comparison', 'log-stats')
    .action((flags: StartFlags) => start(flags));
}

function hasDisplay(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/** Path of the Electron binary, downloading it with Electron's own installer when it is missing. */
function electronBinary(): string | null {
  const require = createRequire(join(appRoot, 'package.json'));
  const locate = (): string | null => {
    try {
      const path = require('electron') as unknown as string;
      return typeof path === 'string' && existsSync(path) ? path : null;
    } catch {
      return null;
    }
  };
  const found = locate();
  if (found) return found;
  let installer: string;
  try {
    installer = require.resolve('electron/install.js');
  } catch {
    return null;
  }
  say('Fetching the Electron binary (first start)…');
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const r = spawnSync(process.execPath, [installer], { stdio: 'inherit', env });
  return r.status === 0 ? locate() : null;
}

function cliArgs(): string[] {
  // Re-run this same CLI (built or from source) for the headless comparison.
  return [...process.execArgv, process.argv[1]];
}

function headlessProvider(): string[] {
  for (const p of PROVIDER_PRESETS) {
    if (p.keyEnv && process.env[p.keyEnv]) return ['--provider', p.name];
  }
  return [];
}

async function start(flags: StartFlags): Promise<void> {
  if (!flags.headless && hasDisplay()) {
    const binary = electronBinary();
    if (binary && existsSync(join(appRoot, 'dist', 'electron', 'main', 'main.js'))) {
      const child = spawn(binary, [appRoot], { stdio: 'inherit' });
      await new Promise<void>((done) =>
        child.on('exit', (code) => {
          process.exitCode = code ?? 0;
          done();
        }),
      );
      return;
    }
    say(
      binary
        ? 'The app is not built yet (run `npm run build`); running the comparison in the terminal instead.\n'
        : 'Electron could not be installed on this machine; running the comparison in the terminal instead.\n',
    );
  }
  if (!flags.headless && !hasDisplay()) {
    // A newcomer ran `npm start` to see an app: say why none opens and where the same app still is.
    say(
      'No display on this machine (DISPLAY and WAYLAND_DISPLAY are not set), so the desktop app cannot open: the comparison runs here in the terminal instead. To use the app, run `npx parallax serve` and open the address it prints in a browser.\n',
    );
  }
  const provider = headlessProvider();
  if (provider.length === 0) say('No provider key in the environment: using the offline simulated model.\n');
  const child = spawn(process.execPath, [...cliArgs(), 'compare', '--task', flags.task, ...provider], {
    stdio: 'inherit',
  });
  const code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? 1)));
  process.exitCode = code;
  if (code !== 0) return;
  say(
    [
      '',
      'Next:',
      '  npx parallax serve                                   open the app in a browser (same UI as the desktop app)',
      '  npx parallax report latest --format html -o report.html   export this comparison',
      '  npx parallax compare --task time-and-title           another built-in task (`npx parallax tasks` lists them)',
    ].join('\n'),
  );
}
