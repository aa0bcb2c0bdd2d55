/**
 * The default price table: USD per 1M tokens for the common models of every provider preset. Data only — the
 * logic is in pricing.ts. The user's own copy (data folder, prices.json) replaces it once they edit a price.
 *
 * Taken on 2026-12-01 from stored copies of public pages: OpenAI's API pricing page and model pages (as read
 * by pydantic/genai-prices, checked up to 2026-08-02, and in dated public write-ups of the page through
 * 2026-11), DeepSeek's "Models & Pricing" page (V4 rates, and its peak-hour notice of 2026-06-29) and
 * OpenRouter's model list (which mirrors the upstream providers' rates), Anthropic's pricing page (a stored copy); Gemini, Groq, xAI, Together and
 * Mistral from their pricing pages as quoted in dated public copies (2025-10 to 2026-06). Prices change: edit them with
 * `parallax prices set` or the app's price editor, and every run records the price it used.
 */
import type { PriceTable } from './pricing.js';

const OPENAI = 'OpenAI API pricing (developers.openai.com/api/docs/pricing)';
const OPENAI_LONG = `${OPENAI}; short-context rates (prompts up to 272K tokens; longer prompts cost 2× input, 1.5× output)`;
const DEEPSEEK = 'DeepSeek Models & Pricing (api-docs.deepseek.com/quick_start/pricing)';
const DEEPSEEK_PEAK = `${DEEPSEEK}; off-peak rates: DeepSeek bills 2× during its peak hours (01:00–04:00 and 06:00–10:00 UTC) — set a peak price if you run then`;
const GEMINI = 'Gemini API pricing (ai.google.dev/gemini-api/docs/pricing); paid tier, prompts up to 200K tokens';
const GROQ = 'Groq pricing (groq.com/pricing)';
const XAI = 'xAI models and pricing (docs.x.ai/docs/models); prompts up to 128K tokens';
const TOGETHER = 'Together AI pricing (together.ai/pricing), serverless';
const MISTRAL = 'Mistral AI pricing (mistral.ai/pricing)';
const ANTHROPIC =
  'Anthropic pricing (docs.anthropic.com/en/docs/about-claude/pricing); cache write is the 5-minute rate (1.25× input), the 1-hour write 2× input, cached input the cache-hit rate (0.1× input); web search $10 per 1,000 searches';
const OPENROUTER =
  "OpenRouter model list (openrouter.ai/models); OpenRouter also reports each request's cost, which Parallax prefers";

export const DEFAULT_PRICE_TABLE: PriceTable = {
  schema: 'parallax.price-table',
  version: 1,
  date: '2026-12-01',
  currency: 'USD',
  models: [
    // OpenAI (preset "openai"). Cached input is the cache-read rate; GPT-5.6 bills explicit cache writes at 1.25× input.
    { model: 'gpt-4.1-mini', input: 0.4, cachedInput: 0.1, cacheWrite: null, output: 1.6, source: OPENAI },
    { model: 'gpt-4.1', input: 2, cachedInput: 0.5, cacheWrite: null, output: 8, source: OPENAI },
    { model: 'gpt-4.1-nano', input: 0.1, cachedInput: 0.025, cacheWrite: null, output: 0.4, source: OPENAI },
    { model: 'gpt-4o', input: 2.5, cachedInput: 1.25, cacheWrite: null, output: 10, source: OPENAI },
    { model: 'gpt-4o-mini', input: 0.15, cachedInput: 0.075, cacheWrite: null, output: 0.6, source: OPENAI },
    { model: 'o3', input: 2, cachedInput: 0.5, cacheWrite: null, output: 8, source: OPENAI },
    { model: 'o4-mini', input: 1.1, cachedInput: 0.275, cacheWrite: null, output: 4.4, source: OPENAI },
    { model: 'gpt-5', input: 1.25, cachedInput: 0.125, cacheWrite: null, output: 10, source: OPENAI },
    { model: 'gpt-5-mini', input: 0.25, cachedInput: 0.025, cacheWrite: null, output: 2, source: OPENAI },
    { model: 'gpt-5-nano', input: 0.05, cachedInput: 0.005, cacheWrite: null, output: 0.4, source: OPENAI },
    { model: 'gpt-5.4', input: 2.5, cachedInput: 0.25, cacheWrite: null, output: 15, source: OPENAI_LONG },
    { model: 'gpt-5.4-mini', input: 0.75, cachedInput: 0.075, cacheWrite: null, output: 4.5, source: OPENAI },
    { model: 'gpt-5.4-nano', input: 0.2, cachedInput: 0.02, cacheWrite: null, output: 1.25, source: OPENAI },
    { model: 'gpt-5.5', input: 5, cachedInput: 0.5, cacheWrite: null, output: 30, source: OPENAI },
    {
      model: 'gpt-5.6-sol',
      input: 5,
      cachedInput: 0.5,
      cacheWrite: 6.25,
      output: 30,
      source: `${OPENAI_LONG}; list price (a promotion of $4/$20 ran from 2026-08-21)`,
    },
    {
      model: 'gpt-5.6-terra',
      input: 2,
      cachedInput: 0.2,
      cacheWrite: 2.5,
      output: 12,
      source: `${OPENAI_LONG}; reduced on 2026-07-30`,
    },
    {
      model: 'gpt-5.6-luna',
      input: 0.2,
      cachedInput: 0.02,
      cacheWrite: 0.25,
      output: 1.2,
      source: `${OPENAI_LONG}; reduced on 2026-07-30`,
    },
    {
      model: 'gpt-6-astra',
      input: 10,
      cachedInput: 1,
      cacheWrite: 12.5,
      output: 50,
      source: `${OPENAI_LONG}; from 2026-09-03`,
    },

    // DeepSeek (preset "deepseek"). deepseek-chat and deepseek-reasoner were aliases of V4 Flash until 2026-07-24.
    {
      model: 'deepseek-v4-flash',
      input: 0.14,
      cachedInput: 0.0028,
      cacheWrite: null,
      output: 0.28,
      source: DEEPSEEK_PEAK,
    },
    {
      model: 'deepseek-v4-pro',
      input: 0.435,
      cachedInput: 0.003625,
      cacheWrite: null,
      output: 0.87,
      source: DEEPSEEK_PEAK,
    },
    {
      model: 'deepseek-chat',
      input: 0.14,
      cachedInput: 0.0028,
      cacheWrite: null,
      output: 0.28,
      source: `${DEEPSEEK}; alias of deepseek-v4-flash (non-thinking), retired after 2026-07-24`,
    },
    {
      model: 'deepseek-reasoner',
      input: 0.14,
      cachedInput: 0.0028,
      cacheWrite: null,
      output: 0.28,
      source: `${DEEPSEEK}; alias of deepseek-v4-flash (thinking), retired after 2026-07-24`,
    },

    // Google Gemini (preset "gemini", its OpenAI-compatible endpoint). Cached input is implicit caching's read rate.
    { model: 'gemini-2.5-flash', input: 0.3, cachedInput: 0.03, cacheWrite: null, output: 2.5, source: GEMINI },
    { model: 'gemini-2.5-flash-lite', input: 0.1, cachedInput: 0.01, cacheWrite: null, output: 0.4, source: GEMINI },
    { model: 'gemini-2.5-pro', input: 1.25, cachedInput: 0.125, cacheWrite: null, output: 10, source: GEMINI },
    { model: 'gemini-3-flash-preview', input: 0.5, cachedInput: 0.05, cacheWrite: null, output: 3, source: GEMINI },

    // Groq (preset "groq").
    { model: 'llama-3.3-70b-versatile', input: 0.59, cachedInput: null, cacheWrite: null, output: 0.79, source: GROQ },
    { model: 'llama-3.1-8b-instant', input: 0.05, cachedInput: null, cacheWrite: null, output: 0.08, source: GROQ },

    // xAI (preset "xai"). xAI reports reasoning outside completion tokens; Parallax bills it at the output rate.
    { model: 'grok-4-fast', input: 0.2, cachedInput: 0.05, cacheWrite: null, output: 0.5, source: XAI },
    { model: 'grok-4-fast-reasoning', input: 0.2, cachedInput: 0.05, cacheWrite: null, output: 0.5, source: XAI },
    { model: 'grok-4-fast-non-reasoning', input: 0.2, cachedInput: 0.05, cacheWrite: null, output: 0.5, source: XAI },
    { model: 'grok-code-fast-1', input: 0.2, cachedInput: 0.02, cacheWrite: null, output: 1.5, source: XAI },

    // Together AI (preset "together"). The same open model costs differently on each host: these are Together's.
    { model: 'openai/gpt-oss-20b', input: 0.05, cachedInput: null, cacheWrite: null, output: 0.2, source: TOGETHER },
    { model: 'openai/gpt-oss-120b', input: 0.15, cachedInput: null, cacheWrite: null, output: 0.6, source: TOGETHER },

    // Mistral (preset "mistral").
    { model: 'mistral-small-latest', input: 0.1, cachedInput: null, cacheWrite: null, output: 0.3, source: MISTRAL },
    { model: 'mistral-medium-latest', input: 0.4, cachedInput: null, cacheWrite: null, output: 2, source: MISTRAL },

    // Anthropic (preset "anthropic", the native Messages API, which reports cache reads and writes apart).
    {
      model: 'claude-haiku-4-5',
      input: 1,
      cachedInput: 0.1,
      cacheWrite: 1.25,
      cacheWrite1h: 2,
      webSearch: 10,
      output: 5,
      source: ANTHROPIC,
    },
    {
      model: 'claude-sonnet-4-5',
      input: 3,
      cachedInput: 0.3,
      cacheWrite: 3.75,
      cacheWrite1h: 6,
      webSearch: 10,
      output: 15,
      source: `${ANTHROPIC}; prompts up to 200K tokens`,
    },
    {
      model: 'claude-sonnet-4',
      input: 3,
      cachedInput: 0.3,
      cacheWrite: 3.75,
      cacheWrite1h: 6,
      webSearch: 10,
      output: 15,
      source: `${ANTHROPIC}; prompts up to 200K tokens`,
    },
    {
      model: 'claude-opus-4-5',
      input: 5,
      cachedInput: 0.5,
      cacheWrite: 6.25,
      cacheWrite1h: 10,
      webSearch: 10,
      output: 25,
      source: ANTHROPIC,
    },
    {
      model: 'claude-opus-4-1',
      input: 15,
      cachedInput: 1.5,
      cacheWrite: 18.75,
      cacheWrite1h: 30,
      webSearch: 10,
      output: 75,
      source: ANTHROPIC,
    },
    {
      model: 'claude-3-5-haiku',
      input: 0.8,
      cachedInput: 0.08,
      cacheWrite: 1,
      cacheWrite1h: 1.6,
      webSearch: 10,
      output: 4,
      source: ANTHROPIC,
    },

    // OpenRouter (preset "openrouter"): the upstream providers' rates.
    { model: 'openai/gpt-4.1-mini', input: 0.4, cachedInput: 0.1, cacheWrite: null, output: 1.6, source: OPENROUTER },
    { model: 'openai/gpt-4o-mini', input: 0.15, cachedInput: 0.075, cacheWrite: null, output: 0.6, source: OPENROUTER },
    { model: 'openai/gpt-5-mini', input: 0.25, cachedInput: 0.025, cacheWrite: null, output: 2, source: OPENROUTER },
    {
      model: 'openai/gpt-5.4-mini',
      input: 0.75,
      cachedInput: 0.075,
      cacheWrite: null,
      output: 4.5,
      source: OPENROUTER,
    },
    {
      model: 'anthropic/claude-sonnet-4.5',
      input: 3,
      cachedInput: 0.3,
      cacheWrite: 3.75,
      output: 15,
      source: `${OPENROUTER}; prompts up to 200K tokens`,
    },
    {
      model: 'anthropic/claude-sonnet-5',
      input: 3,
      cachedInput: 0.3,
      cacheWrite: 3.75,
      output: 15,
      source: `${OPENROUTER}; standard rate from 2026-09-01`,
    },
    {
      model: 'anthropic/claude-haiku-4.5',
      input: 1,
      cachedInput: 0.1,
      cacheWrite: 1.25,
      output: 5,
      source: OPENROUTER,
    },
    {
      model: 'google/gemini-2.5-flash',
      input: 0.3,
      cachedInput: 0.075,
      cacheWrite: 0.3833,
      output: 2.5,
      source: OPENROUTER,
    },
    {
      model: 'google/gemini-2.5-pro',
      input: 1.25,
      cachedInput: 0.31,
      cacheWrite: 1.625,
      output: 10,
      source: `${OPENROUTER}; prompts up to 200K tokens`,
    },
    {
      model: 'deepseek/deepseek-v4-pro',
      input: 0.435,
      cachedInput: 0.003625,
      cacheWrite: null,
      output: 0.87,
      source: OPENROUTER,
    },
    { model: 'qwen/qwen3-coder', input: 0.22, cachedInput: null, cacheWrite: null, output: 1.8, source: OPENROUTER },
  ],
};
