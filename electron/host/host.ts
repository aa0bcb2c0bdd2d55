/**
 * The comparison host: everything the IPC contract offers, with no Electron in it. The Electron main process
 * and the web host are thin shells that forward channels to these handlers and batches from `onEvents`.
 */
import type { ExportResult, HistoryQuery, ReportFormat, StoredComparison } from '../../shared/ipc-contract.js';
import { APPROVAL_ANSWERS, ELICITATION_ACTIONS } from '../../shared/ipc-contract.js';
import { isReportFormat, unknownReportFormatMessage } from '../../shared/report-formats.js';
import { shellSandbox } from '../engine/sandbox/shell-sandbox.js';
import { BUILTIN_TASKS } from '../../shared/tasks.js';
import type { ComparisonSession } from './comparison-session.js';
import { startComparison, type StartContext } from './comparison-start.js';
import { workerEnv } from './worker-env.js';
import { EngineServices } from './engine-services.js';
import { EventFanIn } from './fan-in.js';
import { checkId, HistoryStore } from './history-store.js';
import { forkLauncher } from './launcher.js';
import { WorkerPool } from './worker-pool.js';
import type { KeyEnvPolicy } from './prepare.js';
import { checkKeyEnvName, KeyEnvRegistry, normalizeBaseUrl } from './key-binding.js';
import { PriceStore } from './price-store.js';
import { anyFolder, type WorkspaceAccess } from './workspace-access.js';
import { cliMcp, noPageMcp, type McpAccess } from './mcp-access.js';
import { cliAgents, noPageAgents, type AgentAccess } from './agent-access.js';
import { RoundSchedulers } from './round-scheduler.js';
import { DEFAULT_TIMING, type RunTiming } from './run-session.js';
import type { BuiltReport } from './reports/index.js';
import { appVersion } from './version.js';
import { checkOtlpTarget } from './otlp-target.js';
import type { Host, HostOptions } from './host-options.js';

export type { BuiltReport };

export type { Host, HostChannel, HostOptions } from './host-options.js';

/** history:page's query, as the page sent it: only the known fields, of the right types, searches bounded. */
function checkHistoryQuery(query: unknown): HistoryQuery {
  if (typeof query !== 'object' || query === null || Array.isArray(query))
    throw new Error('history:page takes one query object, e.g. { offset: 0, limit: 50 }.');
  const q = query as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : undefined);
  const outcome = q.outcome === 'answered' || q.outcome === 'not-answered' ? q.outcome : undefined;
  return {
    offset: num(q.offset),
    limit: num(q.limit),
    search: str(q.search),
    mode: str(q.mode),
    status: str(q.status),
    outcome,
    since: num(q.since),
  };
}

export function createHost(options: HostOptions): Host {
  const warn = options.onWarning ?? ((m: string) => process.stderr.write(`parallax host: ${m}\n`));
  const timing: RunTiming = { ...DEFAULT_TIMING, ...options.timing };
  // A long-lived host answers a page at once and checks the meta.json files for edits just after.
  const store = new HistoryStore(options.dataDir, warn, undefined, 'after');
  const services = new EngineServices();
  const fanIn = new EventFanIn(options.onEvents, warn, options.batching);
  const launcher = options.launcher ?? forkLauncher();
  const sessions = new Map<string, ComparisonSession>();
  /** Rounds in flight per provider, shared by every comparison (a suite's too). */
  const schedulers = new RoundSchedulers();
  const prices = new PriceStore(options.dataDir);
  const cli = options.caller === 'cli';
  const keyEnvNames = new KeyEnvRegistry();
  const storedKeys = options.keys?.getApiKey?.bind(options.keys);
  const keyEnvPolicy: KeyEnvPolicy = cli ? 'any' : keyEnvNames;
  const workspaces: WorkspaceAccess | null = cli ? anyFolder() : (options.workspaces ?? null);
  const mcpAccess: McpAccess =
    options.mcp ?? (cli ? cliMcp() : noPageMcp('Start the comparison with parallax compare --mcp FILE.'));
  const agentAccess: AgentAccess =
    options.agents ?? (cli ? cliAgents() : noPageAgents('Run it with parallax compare --variants FILE.'));
  const env = options.env ?? process.env;
  // Pooled workers start before any key is known: from the environment with every key variable removed.
  const pool =
    options.pool?.instance ??
    (options.pool ? new WorkerPool(launcher, workerEnv(env, null, null), { warn, ...options.pool }) : null);
  const poolSize = Math.max(1, options.pool?.size ?? 2);
  const warmPool = (count = poolSize): Promise<void> => {
    // The app's pool: the tokenizer loads while the user picks a task. The CLI starts its comparison at once, so
    // there it loads with the first reply (comparison-start.ts), not beside the workers' loading.
    if (options.pool?.keepWarm) void services.compositionTrackers().catch(() => undefined);
    return pool?.warm(count, options.pool?.keepWarm ?? false) ?? Promise.resolve();
  };
  let closing: Promise<void> | null = null;
  /** Summaries being written for comparisons that just ended: whenDone, delete and close wait for them. */
  const summaries = new Map<string, Promise<void>>();

  const startContext: StartContext = {
    options,
    closing: () => closing !== null,
    warn,
    timing,
    store,
    services,
    fanIn,
    launcher,
    sessions,
    schedulers,
    prices,
    cli,
    storedKeys,
    keyEnvPolicy,
    workspaces,
    mcpAccess,
    agentAccess,
    env,
    pool,
    summaries,
  };

  const isLive = (runId: string): boolean => [...sessions.values()].some((s) => s.isLive(runId));

  async function useKeyEnv(name: string, baseUrl: string) {
    if (typeof baseUrl !== 'string' || !baseUrl.trim())
      throw new Error("Enter the custom provider's base URL first: the key variable is named for one URL.");
    const checkedName = checkKeyEnvName(name);
    const url = normalizeBaseUrl(baseUrl.trim());
    if (options.confirmKeyEnv && !(await options.confirmKeyEnv(checkedName, url))) {
      throw new Error(`Not allowed: ${checkedName} will not be read.`);
    }
    keyEnvNames.register(checkedName, url);
    return { name: checkedName, baseUrl: url, set: Boolean(env[checkedName]?.trim()) };
  }

  async function exportReport(comparisonId: string, format: ReportFormat): Promise<ExportResult> {
    if (!isReportFormat(format)) {
      throw new Error(unknownReportFormatMessage(String(format)));
    }
    const stored: StoredComparison = await store.open(checkId(comparisonId, 'comparison'), isLive);
    const { buildReport } = await import('./reports/index.js');
    const built = await buildReport(stored, format);
    if (options.exportReport) return options.exportReport(built);
    return { status: 'download', ...built };
  }

  const host: Host = {
    dataDir: options.dataDir,
    'app:info': async () => ({
      version: appVersion(),
      host: options.appHost ?? 'web',
      dataDir: options.dataDir,
      ...(workspaces ? { workspaceFolders: workspaces.info } : {}),
      shellSandbox: shellSandbox().kind,
    }),
    // The page (and its composer) is shown: warm workers start loading now, so Run finds them ready.
    'app:ready': async () => {
      if (options.pool?.keepWarm && !closing) void warmPool();
    },
    'tasks:list': async () => BUILTIN_TASKS,
    'comparison:start': (request) => startComparison(startContext, request),
    'comparison:cancel': async (comparisonId) => {
      sessions.get(checkId(comparisonId, 'comparison'))?.cancel();
    },
    'run:cancel': async (runId) => {
      checkId(runId, 'run');
      for (const s of sessions.values()) if (s.hasRun(runId)) s.cancelRun(runId);
    },
    'history:list': async () => store.list(isLive),
    'history:page': async (query) => {
      const { damaged: _damaged, ...page } = await store.page(checkHistoryQuery(query), isLive);
      return page;
    },
    'history:damaged': async () => store.listDamaged(),
    'history:open': async (comparisonId) => store.open(checkId(comparisonId, 'comparison'), isLive),
    'history:delete': async (comparisonId) => {
      if (sessions.has(checkId(comparisonId, 'comparison'))) {
        throw new Error(`Comparison ${comparisonId} is still running. Cancel it first, then delete it.`);
      }
      await Promise.all([...summaries.values()]); // a summary being written must not land in a folder being removed
      await store.delete(comparisonId);
    },
    // Loaded with the first diff: the report code stays out of the host's start.
    'history:diff': async (baselineId, comparisonId) => {
      const [base, stored] = await Promise.all([
        store.open(checkId(baselineId, 'comparison'), isLive),
        store.open(checkId(comparisonId, 'comparison'), isLive),
      ]);
      return (await import('./reports/diff-report.js')).diffStored(base, stored);
    },
    'report:export': exportReport,
    // Loaded with the first send: the OpenTelemetry packages stay out of the host's start.
    'report:send-otlp': async (comparisonId, target) => {
      const checked = checkOtlpTarget(target);
      const stored = await store.open(checkId(comparisonId, 'comparison'), isLive);
      return (await import('./otlp-export.js')).sendOtlp(stored, checked, {
        quoteReply: cli || options.appHost === 'electron',
      });
    },
    // The openai SDK (~150 modules) loads with the first check, not with the host: a comparison never needs it here.
    'provider:models': async (check) =>
      (await import('./provider-check.js')).checkProvider(check, false, services, options.getApiKey, keyEnvPolicy),
    'provider:test': async (check) =>
      (await import('./provider-check.js')).checkProvider(check, true, services, options.getApiKey, keyEnvPolicy),
    'keys:set': async (providerName, key, baseUrl) => {
      if (!options.keys)
        throw new Error("This host does not store keys; set the provider's key environment variable instead.");
      await options.keys.set(providerName, key, baseUrl ?? null);
    },
    'keys:use-env': useKeyEnv,
    'approval:answer': async (runId, approvalId, decision) => {
      checkId(runId, 'run');
      if (typeof approvalId !== 'string' || !approvalId) throw new Error('Name the approval to answer.');
      if (!APPROVAL_ANSWERS.includes(decision)) {
        throw new Error(`"${String(decision)}" is not an answer; answer ${APPROVAL_ANSWERS.join(', ')}.`);
      }
      const session = [...sessions.values()].find((s) => s.hasRun(runId));
      if (!session)
        throw new Error(`Run ${runId} is not running in this app; it may have ended. Refresh the comparison.`);
      session.answerApproval(runId, approvalId, decision);
    },
    'elicitation:answer': async (runId, elicitationId, reply) => {
      checkId(runId, 'run');
      if (typeof elicitationId !== 'string' || !elicitationId) throw new Error('Name the form to answer.');
      const r = (typeof reply === 'object' && reply !== null ? reply : {}) as { action?: unknown; content?: unknown };
      if (!ELICITATION_ACTIONS.includes(r.action as never))
        throw new Error(`"${String(r.action)}" is not an answer to a form; answer ${ELICITATION_ACTIONS.join(', ')}.`);
      const content = r.content;
      if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content)))
        throw new Error("A form's values are an object of field → value.");
      if (content !== undefined && JSON.stringify(content).length > 100_000)
        throw new Error("The form's values are too long (over 100,000 characters).");
      const session = [...sessions.values()].find((s) => s.hasRun(runId));
      if (!session)
        throw new Error(`Run ${runId} is not running in this app; it may have ended. Refresh the comparison.`);
      // The engine checks the values against the form it read; only the action carries content.
      session.answerElicitation(runId, elicitationId, {
        action: r.action as 'accept' | 'decline' | 'cancel',
        ...(r.action === 'accept' && content ? { content: content as Record<string, unknown> } : {}),
      });
    },
    'workspace:choose': async () => {
      if (!workspaces?.choose) {
        const allowed = workspaces?.info.allowedDirs ?? [];
        throw new Error(
          allowed.length
            ? `This host has no folder dialog: type the path of a folder inside ${allowed.join(' or ')}.`
            : 'This host has no folder dialog and allows no folders of yours.',
        );
      }
      return workspaces.choose();
    },
    'keys:status': async () => (options.keys ? options.keys.status() : {}),
    'agents:view': async (agent) => {
      // Checked as the column would be at the start (a web page may only look at programs the operator allowed).
      await agentAccess.preview([{ mode: 'agent', agent }]);
      const [{ parseVariants }, { resolveAgentLaunch }, { shellSandbox }] = await Promise.all([
        import('../../shared/variants.js'),
        import('../engine/agent/agent-launch.js'),
        import('../engine/sandbox/shell-sandbox.js'),
      ]);
      const checked = parseVariants([{ mode: 'agent', agent }])[0]!.agent!;
      const sandbox = shellSandbox();
      return {
        launch: await resolveAgentLaunch(checked, { env, dataDir: options.dataDir }),
        sandbox: { kind: sandbox.kind, reason: sandbox.reason },
      };
    },
    'prices:get': () => prices.view(),
    'prices:set': async (price) => {
      await prices.set(price);
      return prices.view();
    },
    'prices:remove': async (model) => {
      await prices.remove(model);
      return prices.view();
    },
    'prices:reset': async () => {
      await prices.reset();
      return prices.view();
    },
    warmPool,
    whenDone: async (comparisonId) => {
      const session = sessions.get(comparisonId);
      await session?.done;
      await summaries.get(comparisonId);
      return session?.notRecorded ?? new Map();
    },
    close: () =>
      (closing ??= (async () => {
        pool?.close();
        const running = [...sessions.values()];
        for (const s of running) s.cancel();
        const all = Promise.all(running.map((s) => s.done));
        if (!(await settleWithin(all, timing.cancelGraceMs + 1500))) {
          for (const s of running) s.kill();
          await settleWithin(all, 3000);
        }
        fanIn.flush();
        await Promise.all([...summaries.values()]);
        await services.close();
      })()),
  };
  return host;
}

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}
