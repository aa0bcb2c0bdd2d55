/**
 * A stored comparison back in the composer: its task, provider and model, modes or columns, trials, settings
 * and rounds at once as the form that starts the same comparison again ("Run again", "Edit in composer", the
 * result's advice to run more trials). What a comparison does not store (MCP servers' config, a desktop
 * folder's grant) is said in notes, never guessed. Pure: no React, no DOM.
 */
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import { MODE_IDS, type ModeId, type RunSettingsInput } from '../../shared/run-spec.js';
import type { VariantRecord } from '../../shared/variants.js';
import { draftFromSettings, type ComposerForm } from './composer-model.js';
import { blankVariant, checkVariants, COLUMN_KNOBS, type VariantDraft } from './composer-variants.js';

export interface FormFromMeta {
  readonly form: ComposerForm;
  /** What could not be carried over, one sentence each (shown beside the composer's Run). */
  readonly notes: readonly string[];
}

/** A stored column as a composer row: its overrides spread over the row's fields, the rest as JSON. */
function draftOf(v: VariantRecord): VariantDraft {
  const rest: Record<string, unknown> = { ...(v.settings ?? {}) };
  const take = (key: string): unknown => {
    const value = rest[key];
    delete rest[key];
    return value;
  };
  const returnTypes = take('returnTypes');
  const maxSteps = take('maxSteps');
  const truncateChars = take('truncateChars');
  const knobs: Record<string, string> = {};
  for (const id of COLUMN_KNOBS) {
    const value = take(id);
    if (typeof value === 'string') knobs[id] = value;
  }
  const words = v.agent?.command ?? null;
  return {
    ...blankVariant(v.mode),
    provider: v.provider ?? '',
    model: v.model ?? '',
    returnTypes: returnTypes === true ? 'on' : returnTypes === false ? 'off' : 'same',
    maxSteps: typeof maxSteps === 'number' ? String(maxSteps) : '',
    truncateChars: typeof truncateChars === 'number' ? String(truncateChars) : '',
    ...(Object.keys(knobs).length ? { knobs } : {}),
    other: Object.keys(rest).length ? JSON.stringify(rest as RunSettingsInput) : '',
    ...(words ? { agentCommand: words.some((w) => /\s/.test(w)) ? JSON.stringify(words) : words.join(' ') } : {}),
  };
}

/** The modes of the comparison's runs, in the app's order. */
function modesOf(meta: ComparisonMeta): ModeId[] {
  const used = new Set(meta.runs.map((r) => r.mode));
  return MODE_IDS.filter((m) => used.has(m));
}

/**
 * The form that runs `meta` again. `current` gives what a comparison does not hold (a typed free-text task
 * is replaced, the MCP config kept only when the comparison used MCP servers); `mcpServers` are the servers
 * its runs' tools came from (run-started), so the notes can name them.
 */
export function formFromMeta(
  meta: ComparisonMeta,
  current: ComposerForm,
  mcpServers: readonly string[] = [],
): FormFromMeta {
  const notes: string[] = [];
  const trials = Math.max(1, ...meta.runs.map((r) => r.trial ?? 1));
  const simulated = meta.provider.simulated;
  const settings = draftFromSettings(meta.settings);
  let variants: VariantDraft[] | undefined;
  if (meta.variants?.length) {
    variants = meta.variants.map(draftOf);
    for (const v of meta.variants) {
      if (v.baseUrl)
        notes.push(
          `Column “${v.label}” ran on its own server (${v.baseUrl}), which the composer cannot set per column: use the CLI's --variants for it.`,
        );
      if (v.agent?.envNames?.length)
        notes.push(
          `Column “${v.label}” had variables set (${v.agent.envNames.join(', ')}); their values are not stored.`,
        );
    }
    // A row keeps its stored label only when it is not the one the composer derives anyway.
    const derived = checkVariants(variants, {
      provider: meta.provider.name,
      model: meta.provider.model,
      settings: meta.settings,
    }).columns;
    variants = variants.map((d, i) =>
      derived?.[i] && derived[i]!.label !== meta.variants![i]!.label ? { ...d, label: meta.variants![i]!.label } : d,
    );
  }
  let workspaceDir: string | undefined;
  if (meta.workspaceSource.startsWith('folder:')) {
    workspaceDir = meta.workspaceSource.slice('folder:'.length);
    notes.push(`The workspace was your folder ${workspaceDir}: it is copied again as it is now.`);
  }
  if (mcpServers.length)
    notes.push(
      `Its tools came from the MCP server${mcpServers.length === 1 ? '' : 's'} ${mcpServers.join(', ')}, whose config is not stored: paste it under Advanced → MCP servers.`,
    );
  const form: ComposerForm = {
    ...current,
    taskChoice: meta.task.id ?? 'custom',
    customTask: meta.task.id ? current.customTask : meta.task.text,
    providerName: meta.provider.name,
    baseUrl: simulated ? '' : meta.provider.baseUrl,
    model: meta.provider.model,
    modes: modesOf(meta),
    trials: String(trials),
    settings,
    variants,
    concurrency: meta.concurrency && trials > 1 ? String(meta.concurrency) : '',
    mcpConfig: mcpServers.length ? current.mcpConfig : '',
    workspaceDir,
    workspaceHandle: null,
    protocol: meta.provider.protocol,
  };
  return { form, notes };
}
