/**
 * How the simulated model counts prompt tokens. 'openai' (the default) is OpenAI's published chat accounting
 * over the exact request (engine/tokens/count-tokens.ts). 'tutorial' adds what the reference tutorial's
 * provider (DeepSeek) visibly charged on top of the request text: its chat template renders the tool list
 * with a fixed instruction block and a per-tool frame. The two constants are not guessed: they are solved
 * from the tutorial's two published first requests (Code Mode 461 tokens with 1 tool, ReAct ≈ 631 with 6),
 * minus what the same requests count here with the tutorial's tools and prompts (docs/simulated-model.md).
 * The count itself is in replies.ts, which loads with the server's first request (it holds the tokenizer).
 */
export const ACCOUNTING_HEADER = 'x-parallax-sim-accounting';
export const SIM_ACCOUNTINGS = ['openai', 'tutorial'] as const;
export type SimAccounting = (typeof SIM_ACCOUNTINGS)[number];

/** Tokens the tutorial's provider adds to a request that offers tools: once per request, and per tool. */
export const TUTORIAL_TEMPLATE = { perRequestWithTools: 186, perTool: 14 } as const;

/** Parses the header: absent or empty is 'openai'; anything else unknown throws a message naming the choices. */
export function parseAccounting(value: string | readonly string[] | undefined): SimAccounting {
  const text = (Array.isArray(value) ? value.join(',') : ((value as string | undefined) ?? '')).trim();
  if (text === '') return 'openai';
  if ((SIM_ACCOUNTINGS as readonly string[]).includes(text)) return text as SimAccounting;
  throw new Error(
    `Invalid ${ACCOUNTING_HEADER} header "${text.slice(0, 40)}": use ${SIM_ACCOUNTINGS.join(' or ')}, or leave it out for openai.`,
  );
}
