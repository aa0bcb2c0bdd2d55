/** `--settings <json>` for `run` and `compare`: any run setting as JSON, with the dedicated flags on top. */
import { Option, type Command } from 'commander';
import { PROMPT_CACHE_HELP, PROMPT_CACHES, type SimFault } from '../../shared/run-spec.js';
import { SEARCH_BACKEND_IDS, SEARCH_BACKENDS, type SearchBackendId } from '../../shared/search-backends.js';
import { KNOB_IDS, knobHelp, knobOf, knobValueError, type KnobId } from '../../shared/run-knobs.js';
import { FORMER_SETTING_NAMES } from '../../shared/former-setting-names.js';
import { warn } from './terminal.js';

/** Each experiment knob's flag, as commander names it (`--code-state` → `codeState`: the setting's own name). */
export type KnobFlags = { readonly [K in KnobId]?: string };

export interface SettingsFlags extends KnobFlags {
  readonly settings?: string;
  readonly maxSteps?: string;
  readonly fault?: string[];
  readonly webSearch?: string;
  readonly webSearchUrl?: string;
  readonly promptCache?: string;
}

/** The flags of the given knobs (default: every knob set per comparison), with each value's meaning as help. */
export function addKnobOptions(
  cmd: Command,
  ids: readonly KnobId[] = KNOB_IDS.filter((id) => knobOf(id).scope.comparison),
): Command {
  for (const id of ids) {
    const k = knobOf(id);
    const formerly = formerFlag(id);
    cmd.option(`--${k.flag.name} <kind>`, `${k.flag.lead}: ${knobHelp(k.help)}`);
    // A renamed knob's former flag still works (scripts written before the rename), out of the help.
    if (formerly) cmd.addOption(new Option(`--${formerly} <kind>`).hideHelp());
  }
  return cmd;
}

/** How commander names a flag's value (`--code-state` → `codeState`). */
const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** A renamed knob's former flag, spelt from its former setting name (`history` → `--history`); null when none. */
function formerFlag(id: KnobId): string | null {
  const was = Object.keys(FORMER_SETTING_NAMES).find((name) => FORMER_SETTING_NAMES[name] === id);
  return was ? was.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) : null;
}

/** The knob settings the flags ask for; a value the knob does not have is refused, naming the flag and the values. */
export function knobSettings(flags: KnobFlags): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of KNOB_IDS) {
    const k = knobOf(id);
    const formerly = formerFlag(id);
    const former = formerly ? (flags as Record<string, unknown>)[camel(formerly)] : undefined;
    if (typeof former === 'string') {
      if (flags[id] !== undefined)
        throw new Error(`--${formerly} is the former name of --${k.flag.name}; give only --${k.flag.name}.`);
      warn(`note: --${formerly} is now --${k.flag.name}; it sets the same setting.`);
    }
    const value = flags[id] ?? (typeof former === 'string' ? former : undefined);
    if (value === undefined) continue;
    const error = knobValueError(id, value);
    if (error) throw new Error(`--${k.flag.name}${k.check ? ':' : ''} ${error}`);
    out[id] = value;
  }
  return out;
}

export function addSettingsOption(cmd: Command): Command {
  cmd
    .option(
      '--settings <json>',
      'more run settings as JSON, e.g. \'{"returnTypes":false,"streamIdleTimeoutMs":30000}\'',
    )
    .option(
      '--web-search <backend>',
      `offer web_search through: ${SEARCH_BACKEND_IDS.join(' | ')} (keys from ${SEARCH_BACKENDS.brave.keyEnv}, ${SEARCH_BACKENDS.tavily.keyEnv})`,
    )
    .option(
      '--web-search-url <url>',
      `the search backend's URL (default for searxng: ${SEARCH_BACKENDS.searxng.defaultUrl})`,
    )
    .option(
      '--prompt-cache <mode>',
      `Anthropic provider: prompt caching, ${PROMPT_CACHES.map((c) => `${c} (${PROMPT_CACHE_HELP[c]})`).join('; ')}`,
    );
  return addKnobOptions(cmd);
}

/** The settings object the flags ask for (validated later by parseSettings, which names each bad field). */
export function buildSettings(flags: SettingsFlags): Record<string, unknown> {
  let extra: Record<string, unknown> = {};
  if (flags.settings) {
    try {
      extra = JSON.parse(flags.settings) as Record<string, unknown>;
    } catch {
      throw new Error(`--settings must be a JSON object, e.g. '{"maxSteps":5}'. Got: ${flags.settings}`);
    }
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra))
      throw new Error('--settings must be a JSON object.');
  }
  if (flags.maxSteps !== undefined) {
    const n = Number(flags.maxSteps);
    if (!Number.isInteger(n)) throw new Error(`--max-steps must be a whole number, got "${flags.maxSteps}".`);
    extra.maxSteps = n;
  }
  if (flags.fault?.length) extra.simFaults = flags.fault as SimFault[];
  if (flags.webSearch !== undefined) {
    if (!(SEARCH_BACKEND_IDS as readonly string[]).includes(flags.webSearch)) {
      throw new Error(`--web-search must be one of ${SEARCH_BACKEND_IDS.join(', ')}; got "${flags.webSearch}".`);
    }
    extra.webSearch = flags.webSearch as SearchBackendId;
  }
  if (flags.webSearchUrl !== undefined) extra.webSearchUrl = flags.webSearchUrl;
  if (flags.promptCache !== undefined) {
    if (!(PROMPT_CACHES as readonly string[]).includes(flags.promptCache))
      throw new Error(`--prompt-cache must be one of ${PROMPT_CACHES.join(', ')}, got "${flags.promptCache}".`);
    extra.promptCache = flags.promptCache;
  }
  return { ...extra, ...knobSettings(flags) };
}
