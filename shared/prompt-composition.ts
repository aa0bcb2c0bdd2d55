/**
 * What a model request carries, split into parts: the system prompt, the tool definitions (schemas, or the
 * run_code description with its catalog), the task, the assistant's own earlier turns (tool calls, programs,
 * text), the tool results sent back, and what fits no part (the provider's own template, framing). Counted
 * with the tokenizer on the request as sent and fitted to the provider's reported prompt tokens, so the parts
 * are integers that sum to the step's prompt tokens. One description per part for every surface.
 */
export const PROMPT_PARTS = ['system', 'tools', 'task', 'assistant', 'toolResults', 'other'] as const;
export type PromptPart = (typeof PROMPT_PARTS)[number];

export type PromptParts = { readonly [P in PromptPart]: number };
export type PromptComposition = PromptParts & {
  /**
   * What the history knob kept out of this request (shared/history-setting.ts): how many earlier tool results
   * went as a placeholder, and the tokens that saved against sending them whole. Not a part: the parts sum to
   * the prompt as sent. Absent when nothing was cleared.
   */
  readonly cleared?: { readonly results: number; readonly tokens: number };
  /**
   * The history summary in force (`summarize:K`): steps `fromStep`–`toStep` go as one summary message of
   * `tokens` (counted in `assistant`, the model wrote it) instead of the `replacedTokens` they held when sent
   * whole. Not a part either. Absent before the first summary.
   */
  readonly summarized?: {
    readonly fromStep: number;
    readonly toStep: number;
    readonly replacedTokens: number;
    readonly tokens: number;
  };
};

export interface PromptPartDescription {
  readonly label: string;
  readonly about: string;
  /** Fill of the part in stacked charts (light theme / report, dark theme): one palette, apart from the modes' hues. */
  readonly colour: { readonly light: string; readonly dark: string };
}

export const PROMPT_PART_INFO: Readonly<Record<PromptPart, PromptPartDescription>> = {
  system: { label: 'System prompt', about: "The mode's instructions.", colour: { light: '#6b7280', dark: '#9ca3af' } },
  tools: {
    label: 'Tool definitions',
    about: 'Tool schemas, or the run_code description with its catalog.',
    colour: { light: '#7c3aed', dark: '#a78bfa' },
  },
  task: { label: 'Task', about: "The user's task.", colour: { light: '#0891b2', dark: '#22d3ee' } },
  assistant: {
    label: 'Earlier replies',
    about: "The model's own earlier turns: tool calls, programs, text.",
    colour: { light: '#ca8a04', dark: '#facc15' },
  },
  toolResults: {
    label: 'Tool results',
    about: 'Results of earlier tool calls, sent back with every request.',
    colour: { light: '#dc2626', dark: '#f87171' },
  },
  other: {
    label: 'Other',
    about: "What no part explains: the provider's chat template and framing.",
    colour: { light: '#d1d5db', dark: '#4b5563' },
  },
};

/**
 * Fits counted parts to the reported prompt tokens: what the count leaves unexplained goes to `other`; a count
 * above the report (a provider's tokenizer differs) scales the parts down, largest remainders rounded up, so
 * the parts always sum to `reported`.
 */
export function fitComposition(counted: Omit<PromptParts, 'other'>, reported: number): PromptComposition {
  const parts = PROMPT_PARTS.filter((p): p is Exclude<PromptPart, 'other'> => p !== 'other');
  const sum = parts.reduce((n, p) => n + counted[p], 0);
  if (sum <= reported) return { ...counted, other: reported - sum };
  const exact = parts.map((p) => (counted[p] * reported) / sum);
  const floors = exact.map(Math.floor);
  let left = reported - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - floors[i]!, i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return { ...(Object.fromEntries(parts.map((p, i) => [p, floors[i]!])) as Omit<PromptParts, 'other'>), other: 0 };
}
