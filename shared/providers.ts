/**
 * Provider presets. Each speaks one protocol at its base URL: OpenAI chat completions (most), or Anthropic's
 * native Messages API (`POST {baseUrl}/messages`, x-api-key and anthropic-version headers).
 */
export type ProviderProtocol = 'openai' | 'anthropic';

/** The Messages API version every Anthropic request names (docs.anthropic.com/en/api/versioning). */
export const ANTHROPIC_VERSION = '2023-06-01';

export interface ProviderPreset {
  readonly name: string;
  readonly label: string;
  /** null for 'simulated' (its URL is assigned when its server starts) and 'custom' (the user types one). */
  readonly baseUrl: string | null;
  readonly needsKey: boolean;
  /** Environment variable the CLI reads the key from by default. */
  readonly keyEnv: string | null;
  readonly defaultModel: string;
  /** Whether GET {baseUrl}/models lists the models. */
  readonly listsModels: boolean;
  /** Runs models on the user's own machine: no API bill, so no price unless the user sets one. */
  readonly local?: boolean;
  /**
   * false when the provider refuses `stream_options` (usage is then read from wherever it sends it, or
   * estimated). Absent: sent, and dropped by itself for the rest of a run if the provider refuses it.
   */
  readonly streamOptions?: boolean;
  /** The wire protocol; absent: OpenAI chat completions. */
  readonly protocol?: ProviderProtocol;
  /**
   * false when the provider refuses `stop` (text ReAct then reads the whole reply and drops what follows a line
   * starting "Observation:"). Absent: sent, and dropped by itself for the rest of a run if the provider refuses it.
   */
  readonly stop?: boolean;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    name: 'simulated',
    label: 'Simulated (offline)',
    baseUrl: null,
    needsKey: false,
    keyEnv: null,
    defaultModel: 'sim',
    listsModels: true,
  },
  {
    name: 'openai',
    label: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    needsKey: true,
    keyEnv: 'OPENAI_API_KEY',
    defaultModel: 'gpt-4.1-mini',
    listsModels: true,
  },
  // Native Messages API (docs.anthropic.com/en/api/messages): exact cache read and write counts, tool_use blocks.
  {
    name: 'anthropic',
    label: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    needsKey: true,
    keyEnv: 'ANTHROPIC_API_KEY',
    defaultModel: 'claude-haiku-4-5',
    listsModels: true,
    protocol: 'anthropic',
  },
  {
    name: 'deepseek',
    label: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    needsKey: true,
    keyEnv: 'DEEPSEEK_API_KEY',
    defaultModel: 'deepseek-chat',
    listsModels: true,
  },
  {
    name: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    keyEnv: 'OPENROUTER_API_KEY',
    defaultModel: 'openai/gpt-4.1-mini',
    listsModels: true,
  },
  {
    name: 'ollama',
    label: 'Ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    needsKey: false,
    keyEnv: null,
    defaultModel: 'qwen3:8b',
    listsModels: true,
    local: true,
  },
  {
    name: 'lmstudio',
    label: 'LM Studio',
    baseUrl: 'http://127.0.0.1:1234/v1',
    needsKey: false,
    keyEnv: null,
    defaultModel: 'local-model',
    listsModels: true,
    local: true,
  },
  {
    name: 'vllm',
    label: 'vLLM',
    baseUrl: 'http://127.0.0.1:8000/v1',
    needsKey: false,
    keyEnv: null,
    defaultModel: 'local-model',
    listsModels: true,
    local: true,
  },
  {
    name: 'llamacpp',
    label: 'llama.cpp server',
    baseUrl: 'http://127.0.0.1:8080/v1',
    needsKey: false,
    keyEnv: null,
    defaultModel: 'local-model',
    listsModels: true,
    local: true,
  },
  // Gemini's OpenAI compatibility endpoint (ai.google.dev/gemini-api/docs/openai).
  {
    name: 'gemini',
    label: 'Google Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    needsKey: true,
    keyEnv: 'GEMINI_API_KEY',
    defaultModel: 'gemini-2.5-flash',
    listsModels: true,
  },
  {
    name: 'groq',
    label: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    needsKey: true,
    keyEnv: 'GROQ_API_KEY',
    defaultModel: 'llama-3.3-70b-versatile',
    listsModels: true,
  },
  {
    name: 'xai',
    label: 'xAI',
    baseUrl: 'https://api.x.ai/v1',
    needsKey: true,
    keyEnv: 'XAI_API_KEY',
    defaultModel: 'grok-4-fast',
    listsModels: true,
  },
  {
    name: 'together',
    label: 'Together AI',
    baseUrl: 'https://api.together.ai/v1',
    needsKey: true,
    keyEnv: 'TOGETHER_API_KEY',
    defaultModel: 'openai/gpt-oss-20b',
    listsModels: true,
  },
  {
    name: 'mistral',
    label: 'Mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    needsKey: true,
    keyEnv: 'MISTRAL_API_KEY',
    defaultModel: 'mistral-small-latest',
    listsModels: true,
  },
  {
    name: 'custom',
    label: 'Custom base URL',
    baseUrl: null,
    needsKey: false,
    keyEnv: null,
    defaultModel: '',
    listsModels: true,
  },
];

export function findPreset(name: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.name === name);
}

/** The protocol a provider speaks, by preset name (custom and unknown names: OpenAI chat completions). */
export function protocolOf(name: string): ProviderProtocol {
  return findPreset(name)?.protocol ?? 'openai';
}

/** The protocol of a provider as a run records it: the custom provider's own choice, else its preset's. */
export function protocolOfInfo(info: {
  readonly name: string;
  readonly protocol?: ProviderProtocol;
}): ProviderProtocol {
  return info.protocol ?? protocolOf(info.name);
}

export const PROTOCOLS: readonly ProviderProtocol[] = ['openai', 'anthropic'];
