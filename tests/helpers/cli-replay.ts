/**
 * `parallax run` of the wire shapes' shared task against a loopback replay server, as the CLI tests and the wire
 * reports run it: a workspace with the shapes' two files, the key in an environment variable, the event log
 * read back. No vitest in here: the reports run it under plain tsx.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepEvent } from '../../shared/step-event.js';
import { startReplayServer, type ReplayScript, type ReplayServer } from './replay-server.js';
import { TASK, WORKSPACE_FILES } from './wire-shapes.js';
import { sourceUnlessFresh } from '../electron/host/cli-process.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliReplayOptions {
  /** The CLI's entry: bin/parallax.js (default, from source) or another checkout's electron/cli/main.(ts|js). */
  readonly cli?: string;
  /** Kill the CLI after this long (default: never). */
  readonly timeoutMs?: number;
}

export const KEY_VAR = 'PARALLAX_REPLAY_KEY';

/** What one CLI process gets besides its arguments: node's own flags (e.g. --import a probe), more variables. */
export interface ProcessExtras {
  readonly nodeArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export function cliReplay(key: string, opts: CliReplayOptions = {}) {
  const cli = opts.cli ?? join(process.cwd(), 'bin/parallax.js');
  /** The CLI with `args`, the key in KEY_VAR. */
  function exec(args: readonly string[], extras: ProcessExtras = {}): Promise<CliResult> {
    return new Promise((done) => {
      const loader = cli.endsWith('.ts') ? ['--import', 'tsx'] : [];
      const child = spawn(process.execPath, [...(extras.nodeArgs ?? []), ...loader, cli, ...args], {
        env: { ...process.env, ...sourceUnlessFresh, [KEY_VAR]: key, ...extras.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '',
        stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
      child.on('close', (code) => {
        if (timer) clearTimeout(timer);
        done({ code, stdout, stderr });
      });
    });
  }

  /**
   * `parallax run --task TASK` against `replies` with `args` added (mode, --json, --settings, --protocol …); the
   * result, the event log's events, the log's text and the (closed) server with what it received.
   */
  async function run(
    replies: ReplayScript,
    args: readonly string[] = [],
    extras: ProcessExtras = {},
  ): Promise<CliResult & { events: StepEvent[]; log: string; server: ReplayServer }> {
    const server = await startReplayServer(replies);
    const dir = await mkdtemp(join(tmpdir(), 'parallax-cli-wire-'));
    try {
      const workspace = join(dir, 'ws');
      await mkdir(workspace);
      for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(workspace, f), text);
      const logFile = join(dir, 'events.jsonl');
      const r = await exec(
        [
          'run',
          '--task',
          TASK,
          '--workspace',
          workspace,
          '--base-url',
          server.url,
          '--model',
          'replay',
          '--api-key-env',
          KEY_VAR,
          '--events',
          logFile,
          ...args,
        ],
        extras,
      );
      const log = await readFile(logFile, 'utf8').catch(() => '');
      const events = log.trim()
        ? log
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as StepEvent)
        : [];
      return { ...r, events, log, server };
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  return { exec, run };
}
