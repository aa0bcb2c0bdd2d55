/** `--settings <json>` for `run` and `compare`: any run setting as JSON, with the dedicated flags on top. */
import type { Command } from 'commander';
import type { SimFault } from '../../shared/run-spec.js';
import { SEARCH_BACKEND_IDS, SEARCH_BACKENDS, type SearchBackendId } from '../../shared/search-backends.js';

export interface SettingsFlags {
  readonly settings?: string;
  readonly maxSteps?: string;
  readonly fault?: string[];
  readonly webSearch?: string;
  readonly webSearchUrl?: string;
}

export function addSettingsOption(cmd: Command): Command {
  return cmd
    .option('--settings <json>', 'more run settings as JSON, e.g. \'{"returnTypes":false,"streamIdleTimeoutMs":30000}\'')
    .option('--web-search <backend>', `offer web_search through: ${SEARCH_BACKEND_IDS.join(' | ')} (keys from ${SEARCH_BACKENDS.brave.keyEnv}, ${SEARCH_BACKENDS.tavily.keyEnv})`)
    .option('--web-search-url <url>', `the search backend's URL (default for searxng: ${SEARCH_BACKENDS.searxng.defaultUrl})`);
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
  return extra;
}
