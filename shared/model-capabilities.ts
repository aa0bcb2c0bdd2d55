/**
 * Which models take images as input, by name (an OpenRouter-style "vendor/" prefix is read past). Every model of
 * the default price table (price-table.ts) has its flag here; a test keeps the two together. A model not named
 * takes no images: a tool's image then goes to it as a described line of text, never as data it cannot read.
 *
 * Taken from the providers' model pages (2026): OpenAI's GPT-4o, GPT-4.1, o3, o4-mini and GPT-5 families read
 * images; Anthropic's Claude 3.5+ and 4.x; Google's Gemini 2.5 and 3; xAI's Grok 4 (not grok-code-fast-1);
 * Mistral's Small and Medium 3.x. DeepSeek's chat models, the Llama 3.x text models on Groq, gpt-oss and
 * Qwen3-Coder are text only. The simulated model is text only.
 */

/** Exact names (after any "vendor/" prefix) and name prefixes of models that read images. */
const IMAGE_MODELS: readonly (string | RegExp)[] = [
  /^gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-5/,
  /^gpt-6/,
  /^o3$/,
  /^o4-mini/,
  /^claude-(3-5|3-7|haiku-4|sonnet-4|sonnet-5|opus-4)/,
  /^gemini-(2\.5|3)/,
  /^grok-4/,
  /^mistral-(small|medium)/,
];

/** Whether `model` reads image content parts (false for unknown models and for the simulated one). */
export function takesImages(model: string, simulated = false): boolean {
  if (simulated) return false;
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^[a-z0-9_.-]+\//, '');
  return IMAGE_MODELS.some((m) => (typeof m === 'string' ? m === name : m.test(name)));
}

/** The image types both chat completions and the Messages API accept as inline data. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Per call: at most this many images, each at most this many bytes (decoded), go to the model. */
export const IMAGE_LIMITS = { perCall: 4, bytes: 5 * 1024 * 1024 } as const;
