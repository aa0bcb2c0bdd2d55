/**
 * The reference tutorial's experiment knobs as run settings (its exercises 2, 7 and 8; exercise 3 is
 * `returnTypes`), one description per value: the composer, the CLI help and the reports read these words.
 */

/** How tool descriptions reach the model (exercise 2: a vague docstring). Parameter names never change. */
export const TOOL_DESCRIPTIONS = ['full', 'one-line', 'vague'] as const;
export type ToolDescriptionsSetting = (typeof TOOL_DESCRIPTIONS)[number];
export const TOOL_DESCRIPTIONS_HELP: Record<ToolDescriptionsSetting, string> = {
  full: 'each tool as written: what it does, its arguments, what it returns, its limits',
  'one-line': "only each description's first sentence",
  vague: 'one generic sentence per argument shape ("Do something with a path."), hiding what each tool does',
};

/** Whether a run_code program's top-level variables stay for the run's next program (exercise 8). */
export const CODE_STATES = ['fresh', 'persist'] as const;
export type CodeStateSetting = (typeof CODE_STATES)[number];
export const CODE_STATE_HELP: Record<CodeStateSetting, string> = {
  fresh: 'each run_code program starts with nothing defined',
  persist: "top-level variables stay for the run's next program; each result lists what is stored and the sandbox's memory",
};

/** How ReAct + tool search offers the tools it finds (the tutorial's two approaches, exercise 7). */
export const TOOL_SEARCHES = ['add-tools', 'call-tool'] as const;
export type ToolSearchSetting = (typeof TOOL_SEARCHES)[number];
export const TOOL_SEARCH_HELP: Record<ToolSearchSetting, string> = {
  'add-tools': 'found tools join the tools of later requests (the tool list changes, so a prompt cache misses)',
  'call-tool': 'the tool list stays fixed; found tools are called through call_tool(name, arguments)',
};

/** Labels of each knob, for tables and the composer. */
export const KNOB_LABELS = {
  toolDescriptions: 'Tool descriptions',
  codeState: 'Code Mode state',
  toolSearch: 'Tool search',
} as const;

/** One line naming each value and its meaning, for CLI help: `full (…); one-line (…)`. */
export function knobHelp<K extends string>(help: Record<K, string>): string {
  return Object.entries<string>(help).map(([value, meaning]) => `${value}: ${meaning}`).join('; ');
}
