/**
 * The host + worker set-up the wire-shape tests share: a loopback replay server, a data folder and a workspace
 * holding the shapes' two files, a host as the CLI creates it (its own folder flag taken as given), one
 * comparison of the shared task, and everything closed and removed after each test. Call `wireHost` once at the
 * top of a test file: it registers the clean-up hooks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { ModeId } from '../../shared/modes.js';
import type { ComparisonRequest } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import { createHost, type Host } from '../../electron/host/host.js';
import { startReplayServer, type ReplayScript, type ReplayServer } from './replay-server.js';
import { TASK, WORKSPACE_FILES } from './wire-shapes.js';

export interface WireRun {
  readonly events: readonly StepEvent[];
  readonly meta: ComparisonMeta;
  readonly server: ReplayServer;
  readonly dataDir: string;
  readonly host: Host;
  readonly id: string;
}

export interface WireRunOptions {
  readonly modes?: readonly ModeId[];
  readonly settings?: Record<string, unknown>;
  /** Fields over the custom provider at the replay server's URL (e.g. protocol). */
  readonly provider?: Partial<ComparisonRequest['provider']>;
  /** The columns, when not `modes` under one model (their base URL, when given, is the replay server's: `url`). */
  readonly variants?: (url: string) => ComparisonRequest['variants'];
}

export function wireHost(key: string) {
  const dirs: string[] = [];
  const open: { host: Host; server: ReplayServer }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await Promise.all([o.host.close(), o.server.close()]);
  });
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  const tempDir = async (prefix: string) => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };

  /** The shared task once against `replies` (ReAct unless `modes` says otherwise); the stored events and the server. */
  async function compare(replies: ReplayScript, opts: WireRunOptions = {}): Promise<WireRun> {
    const server = await startReplayServer(replies);
    const dataDir = await tempDir('parallax-wire-data-');
    const workspace = await tempDir('parallax-wire-ws-');
    for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(workspace, f), text);
    const host = createHost({
      dataDir,
      caller: 'cli',
      getApiKey: async () => key,
      onWarning: () => {},
      onEvents: () => {},
    });
    open.push({ host, server });
    const meta = await host['comparison:start']({
      task: TASK,
      modes: opts.variants ? [] : [...(opts.modes ?? ['react'])],
      settings: opts.settings ?? {},
      workspaceDir: workspace,
      ...(opts.variants ? { variants: opts.variants(server.url) } : {}),
      provider: { name: 'custom', baseUrl: server.url, model: 'replay', ...opts.provider },
    });
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    return { events: stored.events, meta: stored.meta, server, dataDir, host, id: meta.id };
  }

  return { compare, tempDir };
}
