/** The host's options and its handler surface (host.ts builds one from the other). */
import type { ExportResult, InvokeChannel, InvokeHandlers } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import type { FanInOptions } from './fan-in.js';
import type { KeyStore } from './key-store.js';
import type { WorkerLauncher } from './launcher.js';
import type { WorkerPool, WorkerPoolOptions } from './worker-pool.js';
import type { GetApiKey } from './prepare.js';
import type { WorkspaceAccess } from './workspace-access.js';
import type { McpAccess } from './mcp-access.js';
import type { AgentAccess } from './agent-access.js';
import type { RunTiming } from './run-session.js';
import type { BuiltReport } from './reports/index.js';

export interface HostOptions {
  readonly dataDir: string;
  /** How long an approval waits for an answer before its run is stopped (default 10 minutes: DEFAULT_APPROVAL_TIMEOUT_MS). */
  readonly approvalTimeoutMs?: number;
  /**
   * Someone answers an MCP server's form (elicitation): default yes for a page (its card), no for the CLI
   * (which says yes on a terminal, where it prompts). Where nobody can, the engine declines each form.
   */
  readonly elicitation?: boolean;
  /** How workers start; default child_process.fork of the real worker. */
  readonly launcher?: WorkerLauncher;
  getApiKey: GetApiKey;
  /** Batches of step events, possibly from several runs, each run in seq order. */
  onEvents(batch: readonly StepEvent[]): void;
  onWarning?(message: string): void;
  /**
   * Where keys:set / keys:status go; without it those channels say keys are managed elsewhere. Its getApiKey,
   * if any, also holds the web search backends' keys ('search:brave'); without it they come from the environment.
   */
  readonly keys?: Pick<KeyStore, 'set' | 'status'> & Partial<Pick<KeyStore, 'getApiKey'>>;
  readonly appHost?: 'electron' | 'web';
  /** Deliver a built report (a save dialog in the desktop shell); default: hand it back as a download. */
  exportReport?(report: BuiltReport): Promise<ExportResult>;
  readonly timing?: Partial<RunTiming>;
  readonly batching?: FanInOptions;
  /** Environment the workers inherit (API keys are stripped); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Who drives the invoke API. 'page' (the default): the app's page, whose requests are checked — a key
   * variable only as named with keys:use-env in this session, a workspace folder only through `workspaces`.
   * 'cli': the user's own command line, taken as given.
   */
  readonly caller?: 'page' | 'cli';
  /** How a page may name a workspace folder; default: it may not (built-in tasks and free text only). */
  readonly workspaces?: WorkspaceAccess;
  /**
   * Which MCP servers a request may name (host/mcp-access.ts). Default: the CLI's as given; a page's none.
   */
  readonly mcp?: McpAccess;
  /** Which agent columns a request may carry (host/agent-access.ts). Default: the CLI's as given; a page's none. */
  readonly agents?: AgentAccess;
  /** Desktop: ask the user in a native dialog before a key variable named by the page is read. */
  confirmKeyEnv?(name: string, baseUrl: string): Promise<boolean>;
  /**
   * Keep warm workers so Run hands out loaded ones. `keepWarm` (the app, the web host): start `size` of them
   * when the page is shown (app:ready) and refill after every comparison, following its mode count. Without
   * it (the CLI), workers are warmed only by warmPool and refilled only for a comparison's next round.
   */
  readonly pool?: WorkerPoolOptions & {
    readonly keepWarm?: boolean;
    readonly size?: number;
    /**
     * A pool made (and warmed) by the caller before the host loaded, so workers start loading at once
     * (`parallax compare`); it must use this host's launcher and environment. The host closes it.
     */
    readonly instance?: WorkerPool;
  };
}

/**
 * The suite channels are not the host's: suites are built on the host (electron/suite drives it), so the shells
 * merge electron/suite/suite-handlers.ts in beside these.
 */
export type HostChannel = Exclude<InvokeChannel, `suites:${string}`>;

export type Host = Pick<InvokeHandlers, HostChannel> & {
  readonly dataDir: string;
  /**
   * Resolves when every run of the comparison has ended and its history is synced, with the runs whose record
   * could not be written in full (run id → why; empty when all of it is on disk).
   */
  whenDone(comparisonId: string): Promise<ReadonlyMap<string, string>>;
  /**
   * Start warm workers now (`count`, default the pool's size) and resolve when they have loaded; nothing when
   * the host keeps no pool.
   */
  warmPool(count?: number): Promise<void>;
  /** Cancel what is running, wait for it to be recorded, close the local servers. */
  close(): Promise<void>;
};
