/**
 * comparison:start: check the request (workspace, MCP servers, agent columns, columns and keys), plan and store
 * the comparison, and hand it to a ComparisonSession whose end writes the comparison's summary.
 */
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { ComparisonRequest, RunSpec } from '../../shared/run-spec.js';
import { searchKeyName } from '../../shared/search-backends.js';
import { checkConcurrency, defaultConcurrency, strictestProvider } from '../../shared/concurrency.js';
import { ComparisonSession } from './comparison-session.js';
import type { CompositionTrackers, EngineServices } from './engine-services.js';
import type { EventFanIn } from './fan-in.js';
import type { HistoryStore } from './history-store.js';
import { isWriteError, writeFailureMessage } from './write-failure.js';
import type { KeyStore } from './key-store.js';
import type { WorkerLauncher } from './launcher.js';
import type { WorkerPool } from './worker-pool.js';
import {
  checkTrials,
  makeRunWorkspace,
  newComparisonId,
  planRuns,
  planWorkspace,
  runSpecOf,
  type KeyEnvPolicy,
} from './prepare.js';
import { prepareColumns } from './comparison-columns.js';
import type { PriceStore } from './price-store.js';
import type { WorkspaceAccess } from './workspace-access.js';
import type { McpAccess } from './mcp-access.js';
import type { AgentAccess } from './agent-access.js';
import type { RoundSchedulers } from './round-scheduler.js';
import type { RunTiming } from './run-session.js';
import type { HostOptions } from './host-options.js';

/** What the host holds that a start reads or adds to (the sessions in flight and their summaries). */
export interface StartContext {
  readonly options: HostOptions;
  /** Whether the host is shutting down (no new comparison then). */
  closing(): boolean;
  warn(message: string): void;
  readonly timing: RunTiming;
  readonly store: HistoryStore;
  readonly services: EngineServices;
  readonly fanIn: EventFanIn;
  readonly launcher: WorkerLauncher;
  readonly sessions: Map<string, ComparisonSession>;
  readonly schedulers: RoundSchedulers;
  readonly prices: PriceStore;
  readonly cli: boolean;
  readonly storedKeys: KeyStore['getApiKey'] | undefined;
  readonly keyEnvPolicy: KeyEnvPolicy;
  readonly workspaces: WorkspaceAccess | null;
  readonly mcpAccess: McpAccess;
  readonly agentAccess: AgentAccess;
  readonly env: NodeJS.ProcessEnv;
  readonly pool: WorkerPool | null;
  /** Summaries being written for comparisons that just ended: whenDone, delete and close wait for them. */
  readonly summaries: Map<string, Promise<void>>;
}

export async function startComparison(ctx: StartContext, request: ComparisonRequest): Promise<ComparisonMeta> {
  const { options, warn, timing, store, services, fanIn, launcher, sessions, schedulers, prices, cli, storedKeys } =
    ctx;
  const { keyEnvPolicy, mcpAccess, agentAccess, env, pool, summaries } = ctx;
  if (ctx.closing()) throw new Error('The host is shutting down; start the comparison again after it restarts.');
  if (typeof request !== 'object' || request === null)
    throw new Error('comparison:start needs a request: task, modes and provider.');
  if (typeof request.task !== 'string') throw new Error('Give a task: a built-in task id or a description in words.');
  const trials = checkTrials(request.trials);
  const workspaceDir = await pageWorkspace(ctx.workspaces, request.workspaceDir);
  // A stdio server is a command this host runs: checked (the desktop asks the user) before anything starts.
  const mcpServers = await mcpAccess.check(request.mcpServers);
  // An agent column is a command this host runs: checked (the desktop asks the user) the same way.
  await agentAccess.check(request.variants);
  // The columns: the modes under one model, or the variants, each with its provider, key and settings checked.
  const prepared = await prepareColumns(
    { ...request, mcpServers },
    {
      services,
      getApiKey: options.getApiKey,
      keyEnv: keyEnvPolicy,
      loadPrices: async () => (await prices.load()).table,
      userFolder: workspaceDir !== null,
      env,
      dataDir: options.dataDir,
      ...(storedKeys
        ? {
            getSearchKey: (backend, url) =>
              storedKeys({ name: searchKeyName(backend), baseUrl: url, model: '', simulated: false }, null),
          }
        : {}),
    },
  );
  const { task, columns, variants } = prepared;
  // Columns may use several providers: the strictest sets the rounds at once and its scheduler is the comparison's.
  const pace = strictestProvider(columns.map((c) => c.base.provider.info));
  const concurrency = concurrencyOf(request.concurrency, pace.name, pace.simulated);
  const id = newComparisonId();
  const dir = store.dir(id);
  const planned = planRuns(
    id,
    columns.map((c) => c.column),
    trials,
  );
  const columnOfRun = (key: string) => columns.find((c) => c.column.key === key)!;
  const runs = planned.map(({ runId, mode, trial, column }) => ({
    runId,
    mode,
    trial,
    ...(variants ? { variant: column } : {}),
  }));
  let specs: RunSpec[];
  let meta;
  try {
    const plan = await planWorkspace(task.id, workspaceDir, dir, options.dataDir);
    // Every copy is made now, from the one source, so later rounds get the same files as the first.
    specs = await Promise.all(
      planned.map(async ({ runId, mode, trial, folder, column }) => {
        const { base, column: record } = columnOfRun(column);
        const workspace = await makeRunWorkspace(plan, join(dir, 'workspaces', folder));
        return runSpecOf(base, {
          runId,
          mode,
          trial,
          comparisonId: id,
          workspace,
          ...(variants ? { variant: record } : {}),
        });
      }),
    );
    meta = {
      id,
      createdAt: Date.now(),
      task,
      provider: prepared.provider,
      settings: prepared.settings,
      runs,
      workspaceSource: plan.description,
      ...(variants ? { variants } : {}),
      ...(concurrency > 1 ? { concurrency } : {}),
    };
    await store.create(meta);
  } catch (err) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw isWriteError(err) ? new Error(writeFailureMessage(store.root, err), { cause: err }) : err;
  }
  if (options.pool?.keepWarm) pool?.setTarget(columns.length);
  // Each run gets its own column's keys, in its init message only (never in a spec or a worker's env).
  const keys = new Map(
    planned.map(({ runId, column }) => {
      const { base } = columnOfRun(column);
      return [runId, { apiKey: base.apiKey, searchKey: base.searchKey }] as const;
    }),
  );
  // The counter loads with the first reply that needs it: loaded before the runs are released, it would hold this
  // thread (and a core) while the workers load. Without it the runs still run; their steps carry no composition.
  let trackers: Promise<CompositionTrackers | undefined> | null = null;
  const loadTrackers = () =>
    (trackers ??= services.compositionTrackers().catch((err: Error) => {
      warn(`Prompt composition will not be recorded: the token counter did not load (${err.message}).`);
      return undefined;
    }));
  const session = new ComparisonSession(meta, specs, keys, {
    launcher,
    store,
    fanIn,
    timing,
    warn,
    baseEnv: env,
    trackers: loadTrackers,
    ...(pool ? { pool } : {}),
    scheduler: schedulers.forProvider(pace.simulated ? 'simulated' : pace.baseUrl, concurrency),
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    elicitation: options.elicitation ?? !cli,
  });
  sessions.set(id, session);
  const summarized = session.done.then(async () => {
    // The history list reads this summary instead of every run log (a missing one is rebuilt when listed).
    sessions.delete(id);
    await store.refreshSummary(id).catch(() => undefined);
    summaries.delete(id);
  });
  summaries.set(id, summarized);
  return meta;
}

/** The real folder the request names, checked by this host's rules; null for the task's own files. */
async function pageWorkspace(workspaces: WorkspaceAccess | null, requested: unknown): Promise<string | null> {
  if (requested === undefined || requested === null || requested === '') return null;
  if (typeof requested !== 'string') throw new Error('The workspace folder must be given as text.');
  if (!workspaces)
    throw new Error('This app cannot copy a folder of yours as the workspace; pick a built-in task or describe one.');
  return workspaces.resolve(requested);
}

/** Rounds at once: as asked (checked against the provider's cap), else the default for the provider. */
function concurrencyOf(requested: unknown, providerName: string, simulated: boolean): number {
  if (requested === undefined || requested === null) return defaultConcurrency(simulated, availableParallelism());
  const checked = checkConcurrency(String(requested), providerName);
  if (checked.error !== null) throw new Error(`Rounds at once (concurrency): ${checked.error}`);
  return checked.concurrency;
}
