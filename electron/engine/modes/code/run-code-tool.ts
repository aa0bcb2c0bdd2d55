/**
 * The one tool Code Mode offers. Its description is sent on every request, so it stays short: what comes
 * back (printed output only), fresh state, the catalog with one signature per line, how to find the hidden
 * tools, and one example line.
 */
import type { ToolExposure } from '../../../../shared/step-event.js';
import { signatureOf, type ToolDefinition } from '../../tools/tool.js';

export const RUN_CODE = 'run_code';

export function runCodeDescription(catalog: readonly ToolDefinition[], returnTypes: boolean): string {
  const lines = catalog.map((tool) => `- ${signatureOf(tool, returnTypes)}`);
  lines.push(
    `- search_tools(query: string)${returnTypes ? ': tool[]' : ''} — finds more tools by English keywords, best first`,
  );
  return [
    'Run a JavaScript program. Only what it prints with print() or console.log() comes back to you, so filter ' +
      'and summarise inside the program instead of printing raw data. Each call starts fresh: nothing carries over.',
    'Tools are synchronous functions (no await needed); pass arguments in order or as one object:',
    ...lines,
    'A found tool is called like a function; print(tool.describe()) shows what it takes and returns.',
    "Example: const fetchPage = search_tools('download web page')[0]; print(fetchPage('https://example.com').title);",
  ].join('\n');
}

export function runCodeExposure(
  catalog: readonly ToolDefinition[],
  returnTypes: boolean,
  describe: (catalog: readonly ToolDefinition[], returnTypes: boolean) => string = runCodeDescription,
): ToolExposure {
  return {
    name: RUN_CODE,
    description: describe(catalog, returnTypes),
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The JavaScript program to run.' } },
      required: ['code'],
      additionalProperties: false,
    },
  };
}
