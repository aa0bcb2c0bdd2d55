/**
 * The provider flags shared by `run` and `compare`: `--model sim` (default, offline), a preset
 * (`--provider deepseek`), or any OpenAI-compatible server (`--base-url URL --model NAME --api-key-env VAR`).
 */
import type { Command } from 'commander';
import { PROTOCOLS, PROVIDER_PRESETS, findPreset, type ProviderProtocol } from '../../shared/providers.js';
import { SIMULATED_MODEL } from '../../shared/run-spec.js';
import { isSimModel, SIM_MODEL_IDS, SIM_MODELS } from '../../shared/sim-models.js';

export interface ProviderFlags {
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKeyEnv?: string;
  readonly protocol?: string;
}

/** What the flags ask for. `baseUrl` null means the simulated model (its URL is known once it starts). */
export interface ProviderChoice {
  readonly name: string;
  readonly baseUrl: string | null;
  readonly model: string;
  readonly apiKeyEnv: string | null;
  readonly simulated: boolean;
  /** --protocol for a custom base URL (absent: OpenAI chat completions). */
  readonly protocol?: ProviderProtocol;
}

/** The simulated model's names and what each does, after the options in --help. */
export function simModelsHelp(): string {
  const width = Math.max(...SIM_MODEL_IDS.map((m) => m.length));
  return [
    '',
    'Simulated models (--model, offline):',
    ...SIM_MODEL_IDS.map((m) => `  ${m.padEnd(width)}  ${SIM_MODELS[m].about}`),
  ].join('\n');
}

export function addProviderOptions(cmd: Command): Command {
  return cmd
    .addHelpText('after', simModelsHelp())
    .option('--provider <preset>', `a provider preset: ${PROVIDER_PRESETS.map((p) => p.name).join(', ')}`)
    .option(
      '--base-url <url>',
      'a custom base URL (OpenAI-compatible unless --protocol says otherwise), e.g. http://127.0.0.1:11434/v1',
    )
    .option(
      '--protocol <protocol>',
      `the custom base URL's wire protocol: ${PROTOCOLS.join(' | ')} (default openai; anthropic: the Messages API, e.g. a gateway for Claude)`,
    )
    .option(
      '--model <name>',
      `the model name (default "${SIMULATED_MODEL}": the offline simulated model; also ${SIM_MODEL_IDS.filter((m) => m !== SIMULATED_MODEL).join(', ')}, listed below)`,
    )
    .option('--api-key-env <VAR>', 'the environment variable that holds the API key');
}

export function resolveProviderFlags(flags: ProviderFlags): ProviderChoice {
  const preset = flags.provider ? findPreset(flags.provider) : undefined;
  if (flags.provider && !preset)
    throw new Error(
      `Unknown provider "${flags.provider}". Use one of: ${PROVIDER_PRESETS.map((p) => p.name).join(', ')}.`,
    );
  const protocol = flags.protocol === undefined ? undefined : (flags.protocol.trim().toLowerCase() as ProviderProtocol);
  if (protocol !== undefined && !PROTOCOLS.includes(protocol))
    throw new Error(`--protocol ${flags.protocol} is not one of: ${PROTOCOLS.join(', ')}.`);
  if (protocol !== undefined && !flags.baseUrl)
    throw new Error('--protocol goes with --base-url: --base-url URL --protocol anthropic --api-key-env VAR.');
  if (protocol !== undefined && preset && preset.name !== 'custom' && protocol !== (preset.protocol ?? 'openai'))
    throw new Error(
      `--provider ${preset.name} speaks ${preset.protocol ?? 'openai'}; for another server that speaks ${protocol}, drop --provider and pass --base-url URL --protocol ${protocol} --api-key-env VAR.`,
    );
  const simulated = !flags.baseUrl && (!preset || preset.name === 'simulated');
  if (simulated) {
    if (flags.model && !isSimModel(flags.model))
      throw new Error(
        `--model ${flags.model} needs --base-url or --provider; without them the simulated model answers to ${SIM_MODEL_IDS.join(', ')}.`,
      );
    return {
      name: 'simulated',
      baseUrl: null,
      model: flags.model ?? SIMULATED_MODEL,
      apiKeyEnv: null,
      simulated: true,
    };
  }
  const baseUrl = flags.baseUrl ?? preset?.baseUrl ?? null;
  if (!baseUrl) throw new Error('The custom provider needs --base-url, e.g. --base-url http://127.0.0.1:8000/v1.');
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new Error(`--base-url "${baseUrl}" is not an http(s) URL. Example: https://api.deepseek.com/v1`);
  }
  const model = flags.model ?? preset?.defaultModel;
  if (!model) throw new Error('Name the model with --model, e.g. --model deepseek-chat.');
  // A preset's key variable is read only for the preset's own URL: at another URL (the simulated model, to try the
  // preset's protocol offline) no key goes, and the host refuses any URL that is not the simulated model.
  const ownUrl = !preset?.baseUrl || preset.baseUrl.replace(/\/+$/, '') === baseUrl.replace(/\/+$/, '');
  return {
    name: preset?.name ?? 'custom',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    apiKeyEnv: flags.apiKeyEnv ?? (ownUrl ? (preset?.keyEnv ?? null) : null),
    simulated: false,
    ...(protocol && !preset ? { protocol } : {}),
  };
}

/** Read the key from the environment; a missing variable the provider needs is an error that says what to set. */
export function readApiKey(choice: ProviderChoice): string | null {
  if (!choice.apiKeyEnv) return null;
  const key = process.env[choice.apiKeyEnv];
  if (!key) {
    const needs = findPreset(choice.name)?.needsKey ?? true;
    if (!needs) return null;
    throw new Error(
      `The environment variable ${choice.apiKeyEnv} is empty. Set it to your ${choice.name} API key (export ${choice.apiKeyEnv}=…) or pass --api-key-env with another variable.`,
    );
  }
  return key;
}
