/** toolDescriptions on one tool: built-in (schema from zod) and MCP-style (its own JSON schema) alike. */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  describedTool,
  isVagueDescription,
  vagueDescription,
} from '../../../../electron/engine/tools/tool-descriptions.js';
import { parametersOf, signatureOf, type ToolDefinition } from '../../../../electron/engine/tools/tool.js';
import { ALL_TOOLS } from '../../../../electron/engine/tools/index.js';

const mcpTool: ToolDefinition = {
  name: 'files_search_files',
  description: 'Recursively search for files matching a pattern. Returns full paths.',
  args: z.object({ path: z.string(), pattern: z.string(), excludePatterns: z.array(z.string()).optional() }),
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Where to start' },
      pattern: { type: 'string', description: 'Glob pattern' },
      excludePatterns: { type: 'array', items: { type: 'string' } },
    },
    required: ['path', 'pattern'],
  },
  returns: 'string',
  source: 'files',
  run: async () => '',
};

describe('tool descriptions', () => {
  it('vague: one sentence from the argument names, the same for the same arguments', () => {
    expect(vagueDescription(mcpTool)).toBe('Do something with a path, a pattern and exclude patterns.');
    expect(vagueDescription({ ...mcpTool, parameters: { type: 'object', properties: {} } })).toBe('Do something.');
    const byShape = new Map(ALL_TOOLS.map((t) => [t.name, vagueDescription(t)]));
    expect(byShape.get('list_dir')).toBe(byShape.get('read_file'));
    for (const text of byShape.values()) expect(isVagueDescription(text)).toBe(true);
    for (const t of ALL_TOOLS) expect(isVagueDescription(t.description)).toBe(false);
  });

  it('vague keeps names, types and required arguments; only the explanations go (MCP schema too)', () => {
    const vague = describedTool(mcpTool, 'vague');
    const props = parametersOf(vague).properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props)).toEqual(['path', 'pattern', 'excludePatterns']);
    expect(Object.values(props).some((p) => 'description' in p)).toBe(false);
    expect(parametersOf(vague).required).toEqual(['path', 'pattern']);
    expect(signatureOf(vague)).toBe(signatureOf(mcpTool));
    expect(vague.source).toBe('files');
    // The original is left alone: other runs of the process still see it whole.
    expect((mcpTool.parameters!.properties as Record<string, { description?: string }>).path.description).toBe(
      'Where to start',
    );
  });

  it('one-line: the first sentence; full: the tool itself', () => {
    expect(describedTool(mcpTool, 'one-line').description).toBe('Recursively search for files matching a pattern.');
    expect(describedTool(mcpTool, 'full')).toBe(mcpTool);
  });
});
