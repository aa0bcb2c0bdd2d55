/**
 * The `toolDescriptions` setting (shared/run-knobs.ts): the tools of a run as the model is told about them.
 * Applied once to the run's profile (modes/toolsets.ts), so every place a description reaches the model reads
 * the same words: ReAct schemas, the text prompt's list, the catalogs, describe(), the search index and its
 * results, MCP tools too. Names and parameter names never change; only what explains them does.
 */
import type { ToolDescriptionsSetting } from '../../../shared/run-knobs.js';
import { parameterNames, parametersOf, type ToolDefinition } from './tool.js';

/** The first sentence of a tool description: enough to choose, short enough to list five. */
export function firstSentence(text: string): string {
  const m = /^([\s\S]*?[.!?])(?=\s+[A-Z]|\s*$)/.exec(text.trim());
  return (m ? m[1] : text.trim()).replace(/\s+/g, ' ');
}

/** `file_path` / `filePath` → "a file path", `url` → "a url", `excludePatterns` → "exclude patterns". */
function withArticle(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  if (/[^s]s$/.test(words)) return words; // a plural takes none
  return `${/^[aeio]/.test(words) ? 'an' : 'a'} ${words}`;
}

/**
 * The vague sentence of the tutorial's exercise 2 ("Do something with a path."), written from the argument
 * names alone: tools with the same arguments read the same, as a careless docstring would leave them.
 */
export function vagueDescription(tool: ToolDefinition): string {
  const names = parameterNames(tool);
  if (names.length === 0) return 'Do something.';
  const parts = names.map(withArticle);
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `Do something with ${list}.`;
}

/** The argument schema without the per-argument explanations, which would give away what a vague tool does. */
function undescribedParameters(tool: ToolDefinition): Record<string, unknown> {
  const schema = parametersOf(tool);
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const bare = Object.fromEntries(
    Object.entries(props).map(([name, p]) => {
      const { description: _description, ...rest } = p;
      return [name, rest];
    }),
  );
  return { ...schema, properties: bare };
}

/** One tool as the setting describes it. */
export function describedTool(tool: ToolDefinition, setting: ToolDescriptionsSetting): ToolDefinition {
  switch (setting) {
    case 'full':
      return tool;
    case 'one-line':
      return { ...tool, description: firstSentence(tool.description) };
    case 'vague':
      return { ...tool, description: vagueDescription(tool), parameters: undescribedParameters(tool) };
  }
}

export function describedTools(
  tools: readonly ToolDefinition[],
  setting: ToolDescriptionsSetting,
): readonly ToolDefinition[] {
  return setting === 'full' ? tools : tools.map((tool) => describedTool(tool, setting));
}

/** Whether a description is one vagueDescription writes (the simulated model reads it to play a confused model). */
export function isVagueDescription(text: string): boolean {
  return /^Do something( with [\w ,]+)?\.$/.test(text.trim());
}
