/**
 * Turning a ComparisonRequest into runnable specs: which provider, which key (checked before any worker
 * starts), which task, and a fresh workspace copy per run.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { cp, mkdir, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { findPreset, protocolOf, PROTOCOLS } from '../../shared/providers.js';
import { resolveApprovalPolicy } from '../../shared/approval.js';
import { resolvePrice, type PriceTable } from '../../shared/pricing.js';
import {
  checkTrials as checkTrialsText,
  isModeId,
  MAX_TRIALS,
  MODE_IDS,
  parseSettings,
  type ComparisonRequest,
  type ModeId,
  type ProviderInfo,
  type RunSettings,
  type RunSpec,
  type TaskRef,
} from '../../shared/run-spec.js';
import type { ModelPrice } from '../../shared/step-event.js';
import type { ColumnRef } from '../../shared/variants.js';
import type { AgentCommand, AgentLaunch } from '../../shared/agent-command.js';
import type { McpServerConfig } from '../../shared/mcp-config.js';
import { findTask, needsFixtureServer } from '../../shared/tasks.js';
import { SEARCH_BACKENDS, type SearchBackendId } from '../../shared/search-backends.js';
import type { EngineServices } from './engine-services.js';
import { isSimulatedEndpoint } from '../sim/detect.js';
import { checkPresetUrl, KeyEnvRegistry, normalizeBaseUrl, sameBaseUrl } from './key-binding.js';
import { fieldToFix } from '../../shared/start-errors.js';
import { simModelProblem } from '../../shared/sim-models.js';

export interface ResolvedProvider {
  readonly info: ProviderInfo;
  readonly apiKeyEnv: string | null;
  /** Whether a run cannot work without a key. */
  readonly needsKey: boolean;
}

export type GetApiKey = (provider: ProviderInfo, apiKeyEnv: string | null) => Promise<string | null>;

export function checkModes(modes: readonly string[]): ModeId[] {
  if (!Array.isArray(modes) || modes.length === 0) {
    throw new Error(`Choose at least one mode to run (${MODE_IDS.join(', ')}).`);
  }
  const seen = new Set<ModeId>();
  for (const m of modes) {
    if (!isModeId(m)) throw new Error(`Unknown mode "${m}". The modes are: ${MODE_IDS.join(', ')}.`);
    if (seen.has(m)) throw new Error(`Mode "${m}" is listed twice; each mode runs once per comparison.`);
    seen.add(m);
  }
  return [...seen];
}

/** Runs per mode: a whole number from 1 to MAX_TRIALS; absent means 1. */
export function checkTrials(trials: unknown): number {
  if (trials === undefined || trials === null) return 1;
  // A number, checked by the one rule of shared/run-spec.ts (text such as "3" is the composer's to turn into one).
  if (typeof trials !== 'number' || checkTrialsText(String(trials)).error !== null) {
    throw new Error(
      `Trials must be a whole number from 1 to ${MAX_TRIALS} (runs of each mode); got ${typeof trials === 'string' ? JSON.stringify(trials) : String(trials)}. Choose a number in that range and start again.`,
    );
  }
  return trials;
}

export interface PlannedRun {
  readonly runId: string;
  readonly mode: ModeId;
  /** Its column's key: the mode for a plain column (shared/variants.ts). */
  readonly column: string;
  readonly trial: number;
  /** The run's workspace folder name under <comparison>/workspaces. */
  readonly folder: string;
}

/**
 * Every run in start order: round 1's columns, then round 2's, and so on. With one trial the ids and folders
 * are the column's key alone (a plain column's is its mode, as before variants existed); with more, they carry
 * the trial.
 */
export function planRuns(
  comparisonId: string,
  columns: readonly (ModeId | { readonly key: string; readonly mode: ModeId })[],
  trials: number,
): PlannedRun[] {
  const runs: PlannedRun[] = [];
  for (let trial = 1; trial <= trials; trial++) {
    for (const c of columns) {
      const { key, mode } = typeof c === 'string' ? { key: c, mode: c } : c;
      const folder = trials === 1 ? key : `${key}-t${trial}`;
      runs.push({ runId: `${comparisonId}-${folder}`, mode, column: key, trial, folder });
    }
  }
  return runs;
}

/**
 * Whose `apiKeyEnv` is taken as given: 'any' — the CLI, where the user typed the flag; otherwise the session's
 * registry of names the user gave in the composer (the invoke API: custom provider only, bound to a URL).
 */
export type KeyEnvPolicy = 'any' | KeyEnvRegistry;

export async function resolveProvider(
  req: ComparisonRequest['provider'],
  services: EngineServices,
  keyEnv: KeyEnvPolicy = new KeyEnvRegistry(),
): Promise<ResolvedProvider> {
  if (typeof req !== 'object' || req === null)
    throw new Error('Choose a provider (a preset such as "openai", or "custom" with a base URL).');
  if (
    typeof req.name !== 'string' ||
    typeof req.model !== 'string' ||
    (req.baseUrl != null && typeof req.baseUrl !== 'string')
  ) {
    throw new Error('The provider needs a name, a model and a base URL given as text.');
  }
  const name = (req?.name ?? '').trim();
  const model = (req?.model ?? '').trim();
  const preset = findPreset(name);
  const cli = keyEnv === 'any';
  const protocol = req.protocol ?? null;
  if (protocol !== null && !PROTOCOLS.includes(protocol)) {
    throw new Error(`Unknown protocol "${String(protocol)}". Use one of: ${PROTOCOLS.join(', ')}.`);
  }
  if (protocol !== null && name !== 'custom' && protocol !== protocolOf(name)) {
    throw new Error(
      cli
        ? `--protocol goes with a custom base URL: drop --provider ${name} and pass --base-url URL --protocol ${protocol} --api-key-env VAR.`
        : `${preset?.label ?? name} speaks its own protocol; to reach another server that speaks ${protocol}, choose "Custom base URL" and its protocol.`,
    );
  }
  if (name === 'simulated') {
    // Any other name would run as `sim` under a label that says otherwise: two "different" columns, one model.
    const problem = model ? simModelProblem(model) : null;
    if (problem) throw new Error(`${problem} ${fieldToFix('model')}`);
    return {
      info: { name, baseUrl: await services.simUrl(), model: model || 'sim', simulated: true },
      apiKeyEnv: null,
      needsKey: false,
    };
  }
  if (!name) throw new Error('Choose a provider (a preset such as "openai", or "custom" with a base URL).');
  const rawUrl = (req.baseUrl ?? '').trim() || preset?.baseUrl || '';
  if (!rawUrl)
    throw new Error(
      `Provider "${name}" needs a base URL, such as http://127.0.0.1:11434/v1. Enter one and start again. ${fieldToFix('baseUrl')}`,
    );
  const baseUrl = withField(() => checkBaseUrl(rawUrl), 'baseUrl');
  // The CLI may point a preset at the simulated model (`--provider anthropic --base-url <sim>`, to try its
  // protocol offline): it speaks the preset's protocol there, and no key goes with it. The page may not: a
  // preset's URL it changes is refused before anything is sent there.
  if (
    keyEnv === 'any' &&
    preset?.baseUrl &&
    !sameBaseUrl(preset.baseUrl, baseUrl) &&
    (await isSimulatedEndpoint(baseUrl))
  ) {
    if (!model)
      throw new Error(
        `Choose a model for provider "${name}" (the simulated model answers to any name, e.g. sim). ${fieldToFix('model')}`,
      );
    return { info: { name, baseUrl, model, simulated: true }, apiKeyEnv: null, needsKey: false };
  }
  withField(() => checkPresetUrl(name, baseUrl, cli ? 'cli' : 'app'), 'baseUrl');
  if (!model)
    throw new Error(
      `Choose a model for provider "${name}" (for example ${preset?.defaultModel || 'the name your server lists'}). ${fieldToFix('model')}`,
    );
  const requestedEnv = typeof req.apiKeyEnv === 'string' && req.apiKeyEnv.trim() ? req.apiKeyEnv.trim() : null;
  if (requestedEnv && keyEnv !== 'any') {
    if (name !== 'custom') {
      throw new Error(
        `A key from an environment variable is only for the custom provider; ${preset?.label ?? name}'s key comes from Settings${preset?.keyEnv ? ` or ${preset.keyEnv}` : ''}.`,
      );
    }
    keyEnv.check(requestedEnv, baseUrl);
  }
  const apiKeyEnv = requestedEnv || preset?.keyEnv || null;
  const simulated = await isSimulatedEndpoint(baseUrl);
  // Only a custom provider chooses; OpenAI is its default and is not written down (records stay as they were).
  const own = name === 'custom' && protocol === 'anthropic' ? { protocol } : {};
  return {
    info: { name, baseUrl, model, simulated, ...own },
    apiKeyEnv,
    needsKey: (preset?.needsKey ?? false) || !!requestedEnv,
  };
}

export const checkBaseUrl = normalizeBaseUrl;

/** A check whose error a composer field can fix: the error says which (shared/start-errors.ts). */
function withField<T>(check: () => T, field: Parameters<typeof fieldToFix>[0]): T {
  try {
    return check();
  } catch (err) {
    throw new Error(`${(err as Error).message} ${fieldToFix(field)}`, { cause: err });
  }
}

export async function fetchKey(provider: ResolvedProvider, getApiKey: GetApiKey): Promise<string | null> {
  const key = (await getApiKey(provider.info, provider.apiKeyEnv))?.trim() || null;
  if (!key && provider.needsKey) {
    const where = provider.apiKeyEnv
      ? `, or set the environment variable ${provider.apiKeyEnv} for the CLI and the web host`
      : '';
    throw new Error(
      `Provider "${provider.info.name}" needs an API key and none is set. Enter it under Model in the composer (desktop app)${where}, then start again. ${fieldToFix('apiKey')}`,
    );
  }
  return key;
}

/** Sortable, path-safe and unique: 20261130-142501-k3j9x2. */
export function newComparisonId(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

export interface WorkspacePlan {
  /** Folder every run's copy is made from, or null for an empty workspace. */
  readonly source: string | null;
  readonly description: string;
}

/** The source of the runs' workspaces: the user's folder, or the task's fixture generated once with one seed. */
export async function planWorkspace(
  taskId: string | null,
  workspaceDir: string | null | undefined,
  comparisonDir: string,
  dataDir: string,
): Promise<WorkspacePlan> {
  if (workspaceDir && workspaceDir.trim()) {
    const dir = resolve(workspaceDir.trim());
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory())
      throw new Error(`The workspace folder ${dir} does not exist or is not a folder. Choose an existing folder.`);
    const real = await realpath(dir);
    const data = await realpath(dataDir).catch(() => resolve(dataDir));
    const rel = relative(real, data);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
      throw new Error(
        `The workspace folder ${dir} contains Parallax's data folder (${dataDir}); choose a folder that does not.`,
      );
    }
    return { source: real, description: `folder:${real}` };
  }
  if (!taskId) return { source: null, description: 'empty' };
  const seed = randomInt(0, 2 ** 31);
  const source = join(comparisonDir, 'fixture');
  const { prepareFixture } = await import('../tasks/fixtures.js');
  await prepareFixture(taskId, source, seed);
  return { source, description: `fixture:${taskId} seed ${seed}` };
}

export async function makeRunWorkspace(plan: WorkspacePlan, dest: string): Promise<string> {
  if (plan.source) await cp(plan.source, dest, { recursive: true, errorOnExist: false, force: true });
  else await mkdir(dest, { recursive: true });
  return dest;
}

/** What every run of a request shares: the task, the provider and its key, the settings with the whole approval policy, the price. */
export interface RunBase {
  readonly task: TaskRef;
  readonly provider: ResolvedProvider;
  readonly apiKey: string | null;
  /** The web search backend's key (Brave, Tavily) when the settings name one; like apiKey, never in a spec. */
  readonly searchKey: string | null;
  readonly settings: RunSettings;
  /** Fixed now and recorded with every run, so its cost never changes with later edits of the table. */
  readonly price: ModelPrice | null;
  readonly fixtureUrl: string | null;
  /** The request's MCP servers, handed to every run's spec. */
  readonly mcpServers: readonly McpServerConfig[];
  /** An agent column's program (mode "agent"), handed to its runs' specs. */
  readonly agent?: AgentCommand;
  /** How that program starts and what it sees (engine/agent/agent-launch.ts), resolved once for the column. */
  readonly agentLaunch?: AgentLaunch;
}

export interface RunBaseOptions {
  readonly services: EngineServices;
  readonly getApiKey: GetApiKey;
  readonly keyEnv: KeyEnvPolicy;
  readonly loadPrices: () => Promise<PriceTable>;
  /** Whether the runs work on a copy of the user's folder (the approval defaults differ). */
  readonly userFolder: boolean;
  /** Where search backend keys are read, and agent columns' programs found (default: this process's environment). */
  readonly env?: NodeJS.ProcessEnv;
  /** Parallax's data folder: never shown to an agent column's program. */
  readonly dataDir?: string;
  /** The app's and the web host's stored search keys (absent: the environment only, as in the CLI). */
  readonly getSearchKey?: GetSearchKey;
  /** Checks already made by this start, by URL and key: columns of one provider check it once. */
  readonly preflights?: Map<string, Promise<void>>;
}

/** Looks up a search backend's stored key for the URL it would go to (the app's and the web host's key stores). */
export type GetSearchKey = (backend: SearchBackendId, url: string) => Promise<string | null>;

/**
 * The key of the run's search backend: the stored one (bound to the backend's URL, like a preset's key), else
 * its environment variable; a backend that needs one and has none fails now, before any worker starts.
 */
export async function searchKeyOf(
  settings: RunSettings,
  taskId: string | null,
  env: NodeJS.ProcessEnv,
  getSearchKey?: GetSearchKey,
): Promise<string | null> {
  const backend = SEARCH_BACKENDS[settings.webSearch];
  // A task with its own offline index searches it whatever the settings say (engine/tools/search-backends.ts).
  if (!backend.keyEnv || findTask(taskId ?? '')?.ownSearchIndex) return null;
  const url = settings.webSearchUrl ?? backend.defaultUrl!;
  const key = getSearchKey ? (await getSearchKey(settings.webSearch, url))?.trim() : env[backend.keyEnv]?.trim();
  if (!key) {
    throw new Error(
      `The web search backend ${backend.label} needs a key and none is set for ${url}: ` +
        `${getSearchKey ? 'enter it under Advanced → Web search in the composer, or ' : ''}set the environment variable ${backend.keyEnv}, ` +
        'or choose another search backend (webSearch: searxng, fixture or off), then start again.',
    );
  }
  return key;
}

/**
 * A request's settings, provider, key, price and task, checked in this order, as the host does for each
 * comparison and `parallax run` for its one run.
 */
export async function prepareRunBase(
  request: Pick<ComparisonRequest, 'task' | 'provider' | 'settings' | 'mcpServers'>,
  opts: RunBaseOptions,
): Promise<RunBase> {
  const chosen = parseSettings(request.settings);
  // The shell sandbox's probe (child processes; withApprovals waits for it) runs while the rest is prepared.
  void import('../engine/sandbox/shell-sandbox.js').then((m) => m.shellSandboxAsync()).catch(() => undefined);
  const provider = await resolveProvider(request.provider, opts.services, opts.keyEnv);
  const apiKey = await fetchKey(provider, opts.getApiKey);
  // Before any copy is made or worker started: an unreachable provider or a refused key fails now, in under 2 s.
  const check = `${provider.info.baseUrl}\u0000${apiKey ?? ''}`;
  const checking = opts.preflights?.get(check) ?? (await import('./preflight.js')).preflight(provider.info, apiKey);
  opts.preflights?.set(check, checking);
  await checking;
  const price = provider.info.simulated ? null : resolvePrice(await opts.loadPrices(), provider.info);
  const { resolveTask } = await import('../tasks/resolve.js');
  const pages = needsFixtureServer(request.task.trim()) || chosen.webSearch === 'fixture';
  const fixtureUrl = pages ? await opts.services.fixtureUrl() : null;
  const task = resolveTask(request.task, { fixtureUrl });
  const searchKey = await searchKeyOf(chosen, task.id, opts.env ?? process.env, opts.getSearchKey);
  const settings = await withApprovals(chosen, opts.userFolder);
  return { task, provider, apiKey, searchKey, settings, price, fixtureUrl, mcpServers: request.mcpServers ?? [] };
}

/** The whole approval policy is recorded: what the user chose, and this machine's default for the rest. */
export async function withApprovals(chosen: RunSettings, userFolder: boolean): Promise<RunSettings> {
  const { shellSandboxAsync } = await import('../engine/sandbox/shell-sandbox.js');
  return {
    ...chosen,
    approvals: resolveApprovalPolicy(chosen.approvals, { shellSandbox: (await shellSandboxAsync()).kind, userFolder }),
  };
}

/** One run's spec from the shared base. */
export function runSpecOf(
  base: RunBase,
  run: {
    readonly runId: string;
    readonly mode: ModeId;
    readonly workspace: string;
    readonly comparisonId?: string;
    readonly trial?: number;
    readonly variant?: ColumnRef;
  },
): RunSpec {
  return {
    runId: run.runId,
    ...(run.comparisonId ? { comparisonId: run.comparisonId } : {}),
    task: base.task,
    mode: run.mode,
    ...(run.trial !== undefined ? { trial: run.trial } : {}),
    provider: base.provider.info,
    apiKeyEnv: base.provider.apiKeyEnv,
    settings: base.settings,
    price: base.price,
    fixtureUrl: base.fixtureUrl,
    workspace: run.workspace,
    ...(base.mcpServers.length > 0 ? { mcpServers: base.mcpServers } : {}),
    ...(run.variant ? { variant: { key: run.variant.key, label: run.variant.label } } : {}),
    ...(base.agent ? { agent: base.agent } : {}),
    ...(base.agentLaunch ? { agentLaunch: base.agentLaunch } : {}),
  };
}
