/**
 * run_code as Code Mode (Python) offers it: the same tool, contract and catalog as the JavaScript one
 * (run-code-tool.ts), written for Python: the catalog as Python signatures with return types, handles with
 * .describe(), and one example line.
 */
import type { ToolExposure } from '../../../../shared/step-event.js';
import { pythonSignatureOf } from '../../sandbox/python/py-signature.js';
import type { ToolDefinition } from '../../tools/tool.js';
import { RUN_CODE } from './run-code-tool.js';

export function pyRunCodeDescription(catalog: readonly ToolDefinition[], returnTypes: boolean): string {
  const lines = catalog.map((tool) => `- ${pythonSignatureOf(tool, returnTypes)}`);
  lines.push(
    `- def search_tools(query: str)${returnTypes ? ' -> list[tool]' : ''} — finds more tools by English keywords, best first`,
  );
  return [
    'Run a Python program. Only what it prints with print() comes back to you, so filter and summarise ' +
      'inside the program instead of printing raw data. Each call starts fresh: nothing carries over.',
    'Tools are plain functions returning Python values (str, list, dict); pass arguments in order or by name:',
    ...lines,
    'A found tool is called like a function; print(tool.describe()) shows what it takes and returns. ' +
      'The standard library for data work is there (json, re, math, collections, …); files only through the tools.',
    "Example: fetch_page = search_tools('download web page')[0]; print(fetch_page('https://example.com')['title'])",
  ].join('\n');
}

export function pyRunCodeExposure(catalog: readonly ToolDefinition[], returnTypes: boolean): ToolExposure {
  return {
    name: RUN_CODE,
    description: pyRunCodeDescription(catalog, returnTypes),
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The Python program to run.' } },
      required: ['code'],
      additionalProperties: false,
    },
  };
}
