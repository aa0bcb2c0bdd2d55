/**
 * The tutorial profile ('seed' toolset): the reference tutorial's six tools as it offered them, so its
 * published token table can be reproduced. Each tool runs Parallax's own implementation (same workspace
 * rules, limits and sandbox); what differs is what the model is told and shown: a one-line description,
 * every argument a string (the tutorial derived its schemas from Python signatures without types), and
 * run_shell's output as plain text, as the tutorial's tools returned it.
 */
import { z } from 'zod';
import { currentTime } from './current-time.js';
import { fetchUrl } from './fetch-url.js';
import { listDir } from './list-dir.js';
import { readFile } from './read-file.js';
import { runShell, type ShellResult } from './run-shell.js';
import { ToolError, type ToolDefinition } from './tool.js';
import { writeFile } from './write-file.js';

/** Arguments by name: a default makes the argument optional, null makes it required. */
type SeedParams = Readonly<Record<string, string | null>>;

function seedTool(
  base: ToolDefinition,
  description: string,
  params: SeedParams,
  returns: string,
  toResult: (value: unknown) => unknown = (value) => value,
): ToolDefinition {
  const shape = Object.fromEntries(
    Object.entries(params).map(([name, def]) => [name, def === null ? z.string() : z.string().default(def)]),
  );
  return {
    name: base.name,
    description,
    args: z.object(shape),
    returns,
    ...(base.demo ? { demo: true } : {}),
    async run(args, ctx) {
      // The implementation's own checks (a non-empty command, …) still apply, worded for the model.
      const parsed = base.args.safeParse(args);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${String(i.path[0] ?? 'arguments')}: ${i.message}`);
        throw new ToolError(`Invalid arguments for ${base.name}: ${problems.join('; ')}.`);
      }
      return toResult(await base.run(parsed.data, ctx));
    },
  };
}

/** run_shell's result as text: what the command printed, then its errors, then a non-zero exit code. */
export function shellText(value: unknown): string {
  const run = value as ShellResult;
  const parts = [run.stdout, run.stderr].filter((part) => part !== '');
  let text = parts.map((part) => part.replace(/\n$/, '')).join('\n');
  if (run.exitCode !== 0)
    text += `${text ? '\n' : ''}[exit code ${run.exitCode === null ? 'none: the command was killed' : run.exitCode}]`;
  return text === '' ? '(no output)' : text;
}

export const SEED_TOOLS: readonly ToolDefinition[] = [
  seedTool(listDir, 'List the names of the files and folders in a directory.', { path: '.' }, 'string[]'),
  seedTool(readFile, 'Read a text file and return its whole content as a string.', { path: null }, 'string'),
  seedTool(
    writeFile,
    'Write text to a file, replacing what it held, and say how much was written.',
    { path: null, content: null },
    'string',
  ),
  seedTool(
    runShell,
    'Run a shell command in the working folder and return what it printed.',
    { command: null },
    'string',
    shellText,
  ),
  seedTool(
    fetchUrl,
    'Download a web page and return its status, title and text.',
    { url: null },
    '{status, contentType, title, text}',
  ),
  seedTool(
    currentTime,
    'Return the current date and time in a time zone such as Asia/Shanghai.',
    { timezone: 'UTC' },
    '{timezone, iso, local, weekday}',
  ),
];

/**
 * The tutorial's system prompt for ReAct; every mode's prompt in this profile opens with it and adds its one
 * rule (each mode's definition, ModeDefinition.prompts.seed).
 */
export const SEED_BASE = 'You are a helpful agent. Use the tools to act.';

/** A catalog line in the tutorial's style: `list_dir(path = '.')`, with ` -> type` when return types are shown. */
function seedSignature(tool: ToolDefinition, returnTypes: boolean): string {
  const params = Object.entries(tool.args.shape).map(([name, field]) => {
    const def = (field as z.ZodType).safeParse(undefined);
    return def.success ? `${name} = '${String(def.data)}'` : name;
  });
  return `${tool.name}(${params.join(', ')})${returnTypes ? ` -> ${tool.returns}` : ''}`;
}

/** run_code's description as the tutorial wrote it for its Python sandbox, here for JavaScript. */
export function seedRunCodeDescription(catalog: readonly ToolDefinition[], returnTypes: boolean): string {
  return [
    'Run a JavaScript program. Only what it prints with print() is returned to you, so filter and',
    'summarize inside the code instead of printing raw data. Each call starts with',
    'a fresh namespace.',
    '',
    'Available functions:',
    ...catalog.map((tool) => `- ${seedSignature(tool, returnTypes)}`),
    '- search_tools(query) -> list of tool handles for other tools; call a handle',
    '  like a function, or print(handle.describe()) for its docs.',
    "Example: const fetch = search_tools('download web page')[0]; print(fetch('https://...'))",
  ].join('\n');
}
