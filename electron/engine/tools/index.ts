/**
 * The tool registry: every built-in tool, argument validation, and the texts a mode sends back to the
 * model. ReAct offers `toolExposure(tool)` for each tool; Code Mode calls `invokeTool` from the sandbox.
 * Whatever goes wrong surfaces as a ToolError whose message is written for the model.
 */
import type { z } from 'zod';
import type { ToolExposure } from '../../../shared/step-event.js';
import { calculator, warmUpCalculator } from './calculator.js';
import { currentTime } from './current-time.js';
import { fetchUrl } from './fetch-url.js';
import { getWeather } from './get-weather.js';
import { listDir } from './list-dir.js';
import { readFile } from './read-file.js';
import { runShell } from './run-shell.js';
import { shellSandboxAsync } from '../sandbox/shell-sandbox.js';
import { parameterNames, parametersOf, signatureOf, ToolError, type ToolContext, type ToolDefinition } from './tool.js';
import { writeFile } from './write-file.js';
import { pythonSignatureOf } from '../sandbox/python/py-signature.js';

export { sanitizedShellEnv } from './run-shell.js';
export { shellSandbox, type ShellSandboxInfo, type ShellSandboxKind } from '../sandbox/shell-sandbox.js';
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from './limits.js';
export { ToolError, signatureOf, parametersOf, parameterNames, type ToolContext, type ToolDefinition } from './tool.js';

export const ALL_TOOLS: readonly ToolDefinition[] = [
  listDir,
  readFile,
  writeFile,
  runShell,
  fetchUrl,
  currentTime,
  calculator,
  getWeather,
];

/**
 * Load what the tools load lazily, so that no measured step pays a one-off start-up cost. `computeThread`:
 * also start the compute thread (calculator, fetch_url's HTML, tool search). A pooled worker does not: it is
 * ~13 MB and ~35 ms of CPU per worker that most runs never use; a mode that searches tools starts it before
 * release, and otherwise the first calculator or fetch_url call of a run starts it (counted in that call,
 * as mathjs is, outside the call's time limit).
 */
export async function warmUpTools(options: { readonly computeThread?: boolean } = {}): Promise<void> {
  const thread = options.computeThread === false ? undefined : warmUpCalculator(); // boots meanwhile
  // The capability probe runs bubblewrap once, as a child process: the thread goes on loading meanwhile.
  await Promise.all([thread, shellSandboxAsync()]);
}

export function findTool(name: string): ToolDefinition | undefined {
  return ALL_TOOLS.find((tool) => tool.name === name);
}

/**
 * Validate `args` against the tool's schema and run it. `args` is an object of named arguments; an array is
 * taken as positional arguments in declaration order; undefined/null means no arguments.
 */
export async function invokeTool(
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
  options: InvokeOptions = {},
): Promise<unknown> {
  const language = options.language ?? 'json';
  const input = namedArgs(tool, args, language);
  const parsed = tool.args.safeParse(input);
  if (!parsed.success) throw new ToolError(argumentsMessage(tool, parsed.error, input, language));
  if (ctx.signal.aborted) throw new ToolError(`${tool.name} was cancelled before it started.`);
  try {
    return await tool.run(parsed.data, ctx);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`${tool.name} failed: ${unexpectedErrorText(error, ctx.workspace)}`, { cause: error });
  }
}

/** Errors from the system, said in words; what each code means for the model's next try. */
const ERRNO_TEXT: Record<string, string> = {
  ENAMETOOLONG:
    'a name in the path is too long (at most 255 bytes per name and 4096 for the whole path). Use shorter names.',
  EACCES: 'permission denied. Choose another path in the workspace.',
  EPERM: 'the operation is not permitted. Choose another path in the workspace.',
  ENOSPC: 'the disk is full. Delete files you no longer need or write less.',
  EROFS: 'the file system is read-only.',
  EMFILE: 'too many files are open at once. Open fewer at a time.',
  EISDIR: 'the path is a folder, not a file.',
  ENOTEMPTY: 'the folder is not empty.',
  EEXIST: 'the path already exists.',
};

/**
 * The message of an error no tool explained, without internal paths: the workspace is shown as ".", the walk's
 * `/proc/self/fd/N/` handles not at all (an error message never shows them).
 */
export function unexpectedErrorText(error: unknown, workspace: string): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && ERRNO_TEXT[code]) return `${code}: ${ERRNO_TEXT[code]}`;
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/\/proc\/(self|\d+)\/fd\/\d+\/?/g, '')
    .split(workspace + '/')
    .join('./')
    .split(workspace)
    .join('.');
}

export interface InvokeOptions {
  /** Who calls: a Python program's errors quote the Python signature and a Python call; otherwise JSON arguments. */
  readonly language?: 'json' | 'javascript' | 'python';
}

type CallLanguage = NonNullable<InvokeOptions['language']>;

function signatureIn(tool: ToolDefinition, language: CallLanguage): string {
  return language === 'python' ? pythonSignatureOf(tool) : signatureOf(tool);
}

function namedArgs(tool: ToolDefinition, args: unknown, language: CallLanguage): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  const names = parameterNames(tool);
  if (Array.isArray(args)) {
    // A variadic last parameter gathers the rest of the positional arguments.
    if (tool.rest !== undefined && names[names.length - 1] === tool.rest) {
      const fixed = names.length - 1;
      return {
        ...Object.fromEntries(
          args
            .slice(0, fixed)
            .map((value, i) => [names[i], value])
            .filter(([, value]) => value !== undefined),
        ),
        [tool.rest]: args.slice(fixed),
      };
    }
    if (args.length > names.length) {
      throw new ToolError(
        `${tool.name} takes at most ${names.length} argument${names.length === 1 ? '' : 's'} but got ${args.length}. ` +
          `Signature: ${signatureIn(tool, language)}`,
      );
    }
    return Object.fromEntries(args.map((value, i) => [names[i], value]).filter(([, value]) => value !== undefined));
  }
  if (typeof args !== 'object') {
    throw new ToolError(
      `${tool.name} takes its arguments as an object of named fields, e.g. ${exampleArgs(tool, language)}, not a ${typeName(args)}. ` +
        `Signature: ${signatureIn(tool, language)}`,
    );
  }
  return args as Record<string, unknown>;
}

const PYTHON_TYPES: Readonly<Record<string, string>> = {
  string: 'str',
  number: 'float',
  integer: 'int',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
  null: 'None',
};

function argumentsMessage(
  tool: ToolDefinition,
  error: z.ZodError,
  input: Record<string, unknown>,
  language: CallLanguage,
): string {
  const props = (parametersOf(tool).properties ?? {}) as Record<string, { type?: unknown }>;
  const problems = error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '');
    const declared = typeof props[name]?.type === 'string' ? (props[name].type as string) : undefined;
    const expected = declared ? (language === 'python' ? (PYTHON_TYPES[declared] ?? declared) : declared) : 'a value';
    if (!name) return issue.message;
    if (!(name in input) || input[name] === undefined) return `missing required argument "${name}" (${expected})`;
    if (issue.code === 'invalid_type') {
      return `argument "${name}" must be ${article(expected)}, got ${language === 'python' ? pythonTypeName(input[name]) : typeName(input[name])} ${preview(input[name])}`;
    }
    return `argument "${name}": ${issue.message}`;
  });
  const known = new Set(parameterNames(tool));
  const unknown = Object.keys(input).filter((key) => !known.has(key));
  if (unknown.length > 0)
    problems.push(`unexpected argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`);
  return `Invalid arguments for ${tool.name}: ${problems.join('; ')}. Signature: ${signatureIn(tool, language)}. Call it like ${exampleArgs(tool, language)}.`;
}

/** `{"path": "…"}` for JSON arguments; `read_file(path="…")` for a Python program. */
function exampleArgs(tool: ToolDefinition, language: CallLanguage = 'json'): string {
  const props = (parametersOf(tool).properties ?? {}) as Record<string, { type?: unknown }>;
  const value = (name: string): string => (props[name]?.type === 'string' ? '"…"' : '…');
  if (language === 'python')
    return `${tool.name}(${parameterNames(tool)
      .map((name) => `${name}=${value(name)}`)
      .join(', ')})`;
  return `{${parameterNames(tool)
    .map((name) => `"${name}": ${value(name)}`)
    .join(', ')}}`;
}

function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return PYTHON_TYPES[typeof value] ?? typeof value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function article(type: string): string {
  return /^[aeiou]/i.test(type) ? `an ${type}` : `a ${type}`;
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return `(${text.length > 40 ? `${text.slice(0, 40)}…` : text})`;
}

/** What goes into the `tool` message: strings as they are, anything else as compact JSON. */
export function toolResultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function unknownToolMessage(name: string, available: readonly string[]): string {
  const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const close = available.find((candidate) => squash(candidate) === squash(name));
  const hint = close && close !== name ? ` Did you mean "${close}"?` : '';
  return `Tool "${name}" does not exist. Available tools: ${available.join(', ')}.${hint} Call one of these by its exact name.`;
}

/** The tool as offered to the model: name, description, JSON schema of its arguments. */
export function toolExposure(tool: ToolDefinition): ToolExposure {
  return { name: tool.name, description: tool.description, parameters: parametersOf(tool) };
}
