/** Provider presets. Every one speaks the OpenAI chat-completions protocol at its base URL. */
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
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { name: 'simulated', label: 'Simulated (offline)', baseUrl: null, needsKey: false, keyEnv: null, defaultModel: 'sim', listsModels: true },
  { name: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, keyEnv: 'OPENAI_API_KEY', defaultModel: 'gpt-4.1-mini', listsModels: true },
  { name: 'deepseek', label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', needsKey: true, keyEnv: 'DEEPSEEK_API_KEY', defaultModel: 'deepseek-chat', listsModels: true },
  { name: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, keyEnv: 'OPENROUTER_API_KEY', defaultModel: 'openai/gpt-4.1-mini', listsModels: true },
  { name: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', needsKey: false, keyEnv: null, defaultModel: 'qwen3:8b', listsModels: true },
  { name: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false, keyEnv: null, defaultModel: 'local-model', listsModels: true },
  { name: 'vllm', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', needsKey: false, keyEnv: null, defaultModel: 'local-model', listsModels: true },
  { name: 'custom', label: 'Custom base URL', baseUrl: null, needsKey: false, keyEnv: null, defaultModel: '', listsModels: true },
];

export function findPreset(name: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.name === name);
}
