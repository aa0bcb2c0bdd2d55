/** `--settings <json>` for `run` and `compare`: any run setting as JSON, with the dedicated flags on top. */
import type { Command } from 'commander';
import { PROMPT_CACHE_HELP, PROMPT_CACHES, type SimFault } from '../../shared/run-spec.js';
import { SEARCH_BACKEND_IDS, SEARCH_BACKENDS, type SearchBackendId } from '../../shared/search-backends.js';
import { CODE_STATE_HELP, CODE_STATES, knobHelp, TOOL_DESCRIPTIONS, TOOL_DESCRIPTIONS_HELP, TOOL_SEARCH_HELP, TOOL_SEARCHES } from '../../shared/run-knobs.js';

export interface SettingsFlags {
  readonly settings?: string;
  readonly maxSteps?: string;
  readonly fault?: string[];
  readonly webSearch?: string;
  readonly webSearchUrl?: string;
  readonly promptCache?: string;
  readonly toolDescriptions?: string;
  readonly codeState?: string;
  readonly toolSearch?: string;
}

/** The experiment knobs' flags: flag name, setting, allowed values (shared/run-knobs.ts says what each means). */
const KNOB_FLAGS = [
  { flag: 'tool-descriptions', key: 'toolDescriptions', values: TOOL_DESCRIPTIONS, help: TOOL_DESCRIPTIONS_HELP },
  { flag: 'code-state', key: 'codeState', values: CODE_STATES, help: CODE_STATE_HELP },
  { flag: 'tool-search', key: 'toolSearch', values: TOOL_SEARCHES, help: TOOL_SEARCH_HELP },
] as const;

export function addSettingsOption(cmd: Command): Command {
  return cmd
    .option('--settings <json>', 'more run settings as JSON, e.g. \'{"returnTypes":false,"streamIdleTimeoutMs":30000}\'')
    .option('--web-search <backend>', `offer web_search through: ${SEARCH_BACKEND_IDS.join(' | ')} (keys from ${SEARCH_BACKENDS.brave.keyEnv}, ${SEARCH_BACKENDS.tavily.keyEnv})`)
    .option('--web-search-url <url>', `the search backend's URL (default for searxng: ${SEARCH_BACKENDS.searxng.defaultUrl})`)
    .option('--prompt-cache <mode>', `Anthropic provider: prompt caching, ${PROMPT_CACHES.map((c) => `${c} (${PROMPT_CACHE_HELP[c]})`).join('; ')}`)
    .option('--tool-descriptions <kind>', `how tools are described to the model: ${knobHelp(TOOL_DESCRIPTIONS_HELP)}`)
    .option('--code-state <kind>', `run_code programs: ${knobHelp(CODE_STATE_HELP)}`)
    .option('--tool-search <kind>', `ReAct + tool search: ${knobHelp(TOOL_SEARCH_HELP)}`);
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
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('--settings must be a JSON object.');
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
  for (const knob of KNOB_FLAGS) {
    const value = flags[knob.key];
    if (value === undefined) continue;
    if (!(knob.values as readonly string[]).includes(value)) throw new Error(`--${knob.flag} must be one of ${knob.values.join(', ')}; got "${value}".`);
    extra[knob.key] = value;
  }
  return extra;
}
