/**
 * `parallax exec FILE.js` (or FILE.py, in Code Mode (Python)'s Pyodide sandbox): run one program in the Code Mode sandbox with the standard tool bindings (the
 * catalog as global functions, the rest through search_tools), as a model's run_code call would. Whatever
 * the program does, the command exits 0 and reports it; only misuse of the command itself exits non-zero.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { parseSettings } from '../../../shared/run-spec.js';
import type { ProgramResult } from '../../engine/sandbox/index.js';
import { MCP_FLAG_HELP, readMcpFile } from '../mcp-option.js';

interface ExecFlags {
  workspace?: string;
  timeout?: number;
  memory?: number;
  json?: boolean;
  mcp?: string;
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
    .description('run a JavaScript (or Python) program in the Code Mode sandbox with the standard tools, as run_code would')
    .argument('<file>', 'the program (a .js file, or a .py file for the Python sandbox)')
    .option('--workspace <dir>', 'folder the tools work in (default: the current folder)')
    .option('--timeout <ms>', 'time limit for the program', integer)
    .option('--memory <mb>', 'memory limit for the program', integer)
    .option('--json', 'print {output, error, toolCalls, durationMs, limitHit, …} as JSON')
    .option('--mcp <file>', `${MCP_FLAG_HELP}; found with search_tools, as in a run`)
    .action(async (file: string, flags: ExecFlags) => {
      const python = file.endsWith('.py');
      const [{ standardBindings }, { limitsFromSettings, programText, runProgram, Sandbox }, { PySandbox }] = await Promise.all([
        import('../../engine/modes/code/bindings.js'), import('../../engine/sandbox/index.js'),
        python ? import('../../engine/sandbox/python/py-sandbox.js') : { PySandbox: null },
      ]);
      const path = resolve(file);
      const code = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) =>
        fail(error.code === 'ENOENT' ? `no file at ${path}: give the path of a .js or .py program.` : `cannot read ${path}: ${error.message}`),
      );
      const dir = resolve(flags.workspace ?? '.');
      const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
      if (!isDir) await fail(`the workspace ${dir} is not a folder: pass an existing folder with --workspace.`);
      const workspace = await realpath(dir);
      const settings = parseSettings({
        ...(flags.timeout !== undefined ? { codeTimeoutMs: flags.timeout } : {}),
        ...(flags.memory !== undefined ? { codeMemoryMb: flags.memory } : {}),
      });

      const limits = limitsFromSettings(settings);
      // MCP servers start as a run's do (stdio ones in the workspace); a server that fails is said, and exits 1.
      const servers = await readMcpFile(flags.mcp);
      const { ALL_TOOLS } = await import('../../engine/tools/index.js');
      const reserved = [...ALL_TOOLS.map((t) => t.name), 'run_code', 'search_tools'];
      const mcp = servers.length > 0 ? await (await import('../../engine/mcp/mcp-servers.js')).openMcpServers(servers, workspace, reserved) : null;
      // A failing server is a warning, as on every run: the program runs with the other tools.
      for (const problem of mcp?.problems ?? []) process.stderr.write(`warning: ${problem.message}\n`);
      const sandbox = PySandbox ? new PySandbox() : new Sandbox({ memoryMb: limits.memoryMb });
      try {
        const result = await runProgram(code, {
          ...standardBindings([...ALL_TOOLS, ...(mcp?.tools ?? [])]),
          ctx: { workspace, settings, signal: new AbortController().signal },
          limits,
          returnTypes: settings.returnTypes,
          sandbox,
          language: python ? 'python' : 'javascript',
        });
        if (flags.json) console.log(JSON.stringify(execJson(result), null, 2));
        else console.log(`${programText(result)}\n${summary(result)}`);
      } finally {
        sandbox.dispose();
        await mcp?.close();
      }
    });
}
