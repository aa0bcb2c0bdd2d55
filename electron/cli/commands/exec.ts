/**
 * `parallax exec FILE.js` (or FILE.py, in Code Mode (Python)'s Pyodide sandbox): run one program in the Code Mode sandbox with the standard tool bindings (the
 * catalog as global functions, the rest through search_tools), as a model's run_code call would. Whatever
 * the program does once it runs, the command exits 0 and reports it; a program that does not compile (a syntax
 * error: it never ran) and misuse of the command itself exit non-zero.
 * Without --workspace it works in a fresh temporary copy of the current folder (said on stderr, removed
 * afterwards), so a program cannot write into the user's real folder unless they name it.
 */
import { cp, lstat, mkdtemp, readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { parseSettings } from '../../../shared/run-spec.js';
import type { ProgramResult } from '../../engine/sandbox/index.js';
import { APPROVE_FLAG_HELP, cliApprovalPolicy, TerminalPrompter } from '../approvals.js';
import { MCP_FLAG_HELP, readMcpFile } from '../mcp-option.js';
import { say, sayJson, warn } from '../terminal.js';

interface ExecFlags {
  workspace?: string;
  timeout?: number;
  memory?: number;
  json?: boolean;
  mcp?: string;
  approve?: string;
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected a whole number.');
  return n;
}

/** The --json shape: what a script or test needs to see what happened. */
export function execJson(result: ProgramResult): Record<string, unknown> {
  return {
    output: result.output,
    error: result.error,
    toolCalls: result.toolCalls,
    searches: result.searches,
    toolBytes: result.toolBytes,
    printedBytes: result.printedBytes,
    durationMs: Math.round(result.durationMs * 10) / 10,
    limitHit: result.limitHit,
  };
}

function summary(result: ProgramResult): string {
  const counts = new Map<string, number>();
  for (const call of result.toolCalls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  const calls = [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(', ');
  const parts = [
    `${result.toolCalls.length} tool call${result.toolCalls.length === 1 ? '' : 's'}${calls ? ` (${calls})` : ''}`,
    `${result.searches.length} search${result.searches.length === 1 ? '' : 'es'}`,
    `${Math.round(result.durationMs)} ms`,
    `tools returned ${result.toolBytes} B, printed ${result.printedBytes} B`,
  ];
  if (result.limitHit) parts.push(`limit hit: ${result.limitHit}`);
  return `-- ${parts.join(' · ')}`;
}

async function fail(message: string): Promise<never> {
  throw new Error(message);
}

export function register(program: Command): void {
  program
    .command('exec')
    .description(
      'run a JavaScript (or Python) program in the Code Mode sandbox with the standard tools, as run_code would',
    )
    .argument('<file>', 'the program (a .js file, or a .py file for the Python sandbox)')
    .option(
      '--workspace <dir>',
      'folder the tools work in, as it is: the program may change it (default: a fresh temporary copy of the current folder, removed afterwards)',
    )
    .option('--timeout <ms>', 'time limit for the program', integer)
    .option('--memory <mb>', 'memory limit for the program', integer)
    .option('--json', 'print {output, error, toolCalls, durationMs, limitHit, …} as JSON')
    .option('--mcp <file>', `${MCP_FLAG_HELP}; found with search_tools, as in a run`)
    .option(
      '--approve <list>',
      `approval policy as for parallax run (${APPROVE_FLAG_HELP}); by default run_shell asks where commands run outside an OS sandbox, and is denied without a terminal`,
    )
    .action(async (file: string, flags: ExecFlags) => {
      const python = file.endsWith('.py');
      const [{ standardBindings }, { limitsFromSettings, programText, runProgram, Sandbox }, { PySandbox }] =
        await Promise.all([
          import('../../engine/modes/code/bindings.js'),
          import('../../engine/sandbox/index.js'),
          python ? import('../../engine/sandbox/python/py-sandbox.js') : { PySandbox: null },
        ]);
      const path = resolve(file);
      const code = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) =>
        fail(
          error.code === 'ENOENT'
            ? `no file at ${path}: give the path of a .js or .py program.`
            : `cannot read ${path}: ${error.message}`,
        ),
      );
      const dir = resolve(flags.workspace ?? '.');
      const isDir = await stat(dir).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!isDir) await fail(`the workspace ${dir} is not a folder: pass an existing folder with --workspace.`);
      // Without --workspace the program never touches the folder it was started in (a .git/hooks write, say).
      const copy = flags.workspace === undefined ? await temporaryCopy(await realpath(dir)) : null;
      try {
        await execIn(copy?.workspace ?? (await realpath(dir)), path, code, python, flags, {
          standardBindings,
          limitsFromSettings,
          programText,
          runProgram,
          Sandbox,
          PySandbox,
        });
      } finally {
        if (copy) await rm(copy.base, { recursive: true, force: true });
      }
    });
}

/** Most a current folder may hold to be copied for a run (files and bytes); past this, --workspace is the way. */
const COPY_FILES = 20_000;
const COPY_BYTES = 256 * 1024 * 1024;

async function folderSize(dir: string, total = { files: 0, bytes: 0 }): Promise<{ files: number; bytes: number }> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (total.files > COPY_FILES || total.bytes > COPY_BYTES) break;
    total.files++;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await folderSize(full, total);
    else if (entry.isFile()) total.bytes += (await lstat(full)).size;
  }
  return total;
}

async function temporaryCopy(source: string): Promise<{ base: string; workspace: string }> {
  const size = await folderSize(source);
  if (size.files > COPY_FILES || size.bytes > COPY_BYTES) {
    await fail(
      `the current folder ${source} is too large to copy for the program (over ${COPY_FILES} files or ${COPY_BYTES / 1024 / 1024} MB). ` +
        'Run from a smaller folder, or pass --workspace DIR to let the program work in that folder as it is.',
    );
  }
  const base = await realpath(await mkdtemp(join(tmpdir(), 'parallax-exec-')));
  const workspace = join(base, 'workspace');
  await cp(source, workspace, { recursive: true, verbatimSymlinks: true });
  warn(
    `Working in a temporary copy of ${source} (${workspace}), removed afterwards; your folder is not changed. Pass --workspace DIR to work in a folder as it is.`,
  );
  return { base, workspace };
}

type EngineParts = {
  standardBindings: typeof import('../../engine/modes/code/bindings.js').standardBindings;
  limitsFromSettings: typeof import('../../engine/sandbox/index.js').limitsFromSettings;
  programText: typeof import('../../engine/sandbox/index.js').programText;
  runProgram: typeof import('../../engine/sandbox/index.js').runProgram;
  Sandbox: typeof import('../../engine/sandbox/index.js').Sandbox;
  PySandbox: typeof import('../../engine/sandbox/python/py-sandbox.js').PySandbox | null;
};

async function execIn(
  workspace: string,
  path: string,
  code: string,
  python: boolean,
  flags: ExecFlags,
  parts: EngineParts,
): Promise<void> {
  const { standardBindings, limitsFromSettings, programText, runProgram, Sandbox, PySandbox } = parts;
  const settings = parseSettings({
    ...(flags.timeout !== undefined ? { codeTimeoutMs: flags.timeout } : {}),
    ...(flags.memory !== undefined ? { codeMemoryMb: flags.memory } : {}),
  });

  const limits = limitsFromSettings(settings);
  // MCP servers start as a run's do (stdio ones in the workspace); a server that fails is said, and exits 1.
  const servers = await readMcpFile(flags.mcp);
  const { ALL_TOOLS } = await import('../../engine/tools/index.js');
  const reserved = [...ALL_TOOLS.map((t) => t.name), 'run_code', 'search_tools'];
  const mcp =
    servers.length > 0
      ? await (await import('../../engine/mcp/mcp-servers.js')).openMcpServers(servers, workspace, reserved)
      : null;
  // A failing server is a warning, as on every run: the program runs with the other tools.
  for (const problem of mcp?.problems ?? []) warn(`warning: ${problem.message}`);
  // The dangerous tools follow the approval policy, as in a run (without an OS sandbox run_shell asks first).
  const { gatedTools } = await import('../../engine/approval/gated-tools.js');
  const tty = process.stdin.isTTY === true;
  const { policy, notes } = cliApprovalPolicy(flags.approve, { tty, userFolder: flags.workspace !== undefined });
  for (const note of notes) warn(`note: ${note}`);
  const prompter = tty ? new TerminalPrompter(process.stdin, process.stderr) : null;
  const sandbox = PySandbox ? new PySandbox() : new Sandbox({ memoryMb: limits.memoryMb });
  try {
    const result = await runProgram(code, {
      ...standardBindings(gatedTools([...ALL_TOOLS, ...(mcp?.tools ?? [])], policy, prompter)),
      ctx: { workspace, settings, signal: new AbortController().signal },
      limits,
      returnTypes: settings.returnTypes,
      sandbox,
      language: python ? 'python' : 'javascript',
    });
    if (flags.json) sayJson(execJson(result));
    else say(`${programText(result)}\n${summary(result)}`);
    // A syntax error means nothing ran: a script checking the exit code must not read that as success.
    if (result.error && /^SyntaxError\b/.test(result.error.message)) {
      warn(
        `parallax exec: ${path} did not run: ${result.error.message}${typeof result.error.line === 'number' ? ` (line ${result.error.line})` : ''}. Fix the program and run it again.`,
      );
      process.exitCode = 1;
    }
  } finally {
    prompter?.close();
    sandbox.dispose();
    await mcp?.close();
  }
}
