/**
 * A request's columns, each ready to run: the selected modes under one model (plain columns), or the request's
 * variants (shared/variants.ts), each with its own provider, key, settings, price, search key and approval
 * policy. Every column is checked before any worker starts, by the rules the comparison's own provider follows
 * (key binding, preset URLs, key variables named in this session); an error names the column.
 */
import type { AgentCommand, AgentLaunch } from '../../shared/agent-command.js';
import { findPreset } from '../../shared/providers.js';
import {
  parseSettings,
  type ComparisonRequest,
  type ProviderInfo,
  type RunSettings,
  type TaskRef,
} from '../../shared/run-spec.js';
import {
  parseVariants,
  plainColumns,
  resolveColumns,
  type VariantInput,
  type VariantRecord,
} from '../../shared/variants.js';
import { sameBaseUrl } from './key-binding.js';
import {
  checkModes,
  prepareRunBase,
  resolveProvider,
  withApprovals,
  type RunBase,
  type RunBaseOptions,
} from './prepare.js';

export interface PreparedColumn {
  readonly column: VariantRecord;
  /** What its runs share: task, provider and key, settings with the column's overrides, price. */
  readonly base: RunBase;
}

export interface PreparedColumns {
  readonly columns: readonly PreparedColumn[];
  /** The comparison's own provider and settings, as meta.json records them. */
  readonly provider: ProviderInfo;
  readonly settings: RunSettings;
  readonly task: TaskRef;
  /** The columns as meta.json records them; null when the request gave modes only (nothing new is recorded). */
  readonly variants: readonly VariantRecord[] | null;
}

/**
 * The request's variants, checked; null when it gives modes only. A request may give both only when `modes`
 * lists exactly the variants' modes (what a composer that keeps its mode selection sends): the variants are the
 * columns, and a `modes` that says otherwise is refused rather than silently ignored.
 */
export function requestedVariants(
  request: Pick<ComparisonRequest, 'modes' | 'variants' | 'provider'>,
): VariantInput[] | null {
  // An empty list (a composer with no variants) is no variants: the modes are the columns.
  if (
    request.variants === undefined ||
    request.variants === null ||
    (Array.isArray(request.variants) && request.variants.length === 0)
  )
    return null;
  const variants = parseVariants(request.variants);
  const modes: readonly string[] = Array.isArray(request.modes) ? request.modes : [];
  const ran = [...new Set(variants.map((v) => v.mode))];
  if (modes.length > 0 && (new Set(modes).size !== ran.length || ran.some((m) => !modes.includes(m)))) {
    throw new Error(
      `The request gives modes (${modes.join(', ')}) and variants that run ${ran.join(', ')}: the variants are the columns. ` +
        "Leave the modes out (or list exactly the variants' modes), or give the modes without variants.",
    );
  }
  const own = typeof request.provider === 'object' && request.provider !== null ? request.provider.name : undefined;
  return variants.map((given) => {
    // A base URL under the simulated model is another server: the custom provider at that URL.
    const v =
      given.baseUrl && given.provider === undefined && own === 'simulated' ? { ...given, provider: 'custom' } : given;
    // A column on another provider runs that provider's default model unless it names one: its label says so.
    return v.model === undefined &&
      v.provider !== undefined &&
      v.provider !== own &&
      findPreset(v.provider)?.defaultModel
      ? { ...v, model: findPreset(v.provider)!.defaultModel }
      : v;
  });
}

/** The provider a column asks for: the comparison's (with its model, if it names one), or its own. */
export function providerOf(own: ComparisonRequest['provider'], v: VariantInput): ComparisonRequest['provider'] {
  const name = v.provider ?? own.name;
  const sameServer =
    name === own.name &&
    (v.baseUrl === undefined || (v.baseUrl === null ? !own.baseUrl : sameBaseUrl(v.baseUrl, own.baseUrl)));
  // A gateway may speak both protocols at one URL (LiteLLM's proxy does): a column may pick the other one there.
  const protocol = v.protocol !== undefined ? { protocol: v.protocol } : {};
  if (sameServer)
    return {
      ...own,
      model: v.model ?? own.model,
      ...(v.apiKeyEnv !== undefined ? { apiKeyEnv: v.apiKeyEnv } : {}),
      ...protocol,
    };
  // Another provider: none of the comparison's URL, key variable or protocol goes with it (keys stay bound to their provider).
  return { name, baseUrl: v.baseUrl ?? null, model: v.model ?? own.model, apiKeyEnv: v.apiKeyEnv ?? null, ...protocol };
}

/**
 * How an agent column's program starts and what it sees, resolved here with the user's environment (a worker's
 * has a temporary HOME and no version managers' variables): once per column, before any worker starts.
 */
async function agentLaunchOf(agent: AgentCommand, opts: RunBaseOptions): Promise<AgentLaunch> {
  const { resolveAgentLaunch } = await import('../engine/agent/agent-launch.js');
  return resolveAgentLaunch(agent, { env: opts.env ?? process.env, dataDir: opts.dataDir ?? null });
}

/**
 * Every column of the request, prepared in order. Plain: the comparison's base once, shared by one column per
 * mode (exactly as before variants). Variants: each column through prepareRunBase with its provider and its
 * settings merged over the comparison's (one preflight per provider and key).
 */
export async function prepareColumns(
  request: Pick<ComparisonRequest, 'task' | 'modes' | 'provider' | 'settings' | 'mcpServers' | 'variants'>,
  opts: RunBaseOptions,
): Promise<PreparedColumns> {
  const variants = requestedVariants(request);
  if (!variants) {
    const modes = checkModes(request.modes);
    const base = await prepareRunBase(request, opts);
    return {
      columns: plainColumns(modes).map((column) => ({ column, base })),
      provider: base.provider.info,
      settings: base.settings,
      task: base.task,
      variants: null,
    };
  }
  const chosen = parseSettings(request.settings);
  const own = await resolveProvider(request.provider, opts.services, opts.keyEnv);
  const records = resolveColumns(variants, { provider: own.info.name, model: own.info.model, settings: chosen });
  const withChecks = { ...opts, preflights: opts.preflights ?? new Map<string, Promise<void>>() };
  const columns: PreparedColumn[] = [];
  for (const [i, v] of variants.entries()) {
    const column = records[i]!;
    try {
      const settings = { ...(request.settings ?? {}), ...(v.settings ?? {}) };
      const base = await prepareRunBase(
        { ...request, provider: providerOf(request.provider, v), settings },
        withChecks,
      );
      columns.push({
        column,
        base: v.agent ? { ...base, agent: v.agent, agentLaunch: await agentLaunchOf(v.agent, opts) } : base,
      });
    } catch (err) {
      throw new Error(`Variant ${i + 1} (${column.label}): ${(err as Error).message}`, { cause: err });
    }
  }
  return {
    columns,
    provider: own.info,
    settings: await withApprovals(chosen, opts.userFolder),
    task: columns[0]!.base.task,
    variants: records,
  };
}
