/**
 * `parallax serve`: the app in a browser, for headless machines — the built renderer and the host API over
 * a WebSocket, on 127.0.0.1 only, guarded by the token in the printed URL.
 */
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { resolveDataDir } from '../../host/data-dir.js';
import { defaultRendererDir, missingRendererMessage, rendererAvailable } from '../../host/web/static-files.js';
import { DEFAULT_PORT } from '../../../shared/ws-protocol.js';
import { say, warn } from '../terminal.js';

interface ServeFlags {
  allowDir: string[];
  allowMcp?: boolean;
  allowMcpCommand: string[];
  allowAgentCommand: string[];
  allowEnv: string[];
  allowKeyEnv: string[];
  port: string;
  host: string;
  open?: boolean;
  renderer?: string;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the app to a browser on this machine (127.0.0.1 only, guarded by a token in the printed URL)')
    .option('--port <n>', 'port to listen on (0: any free port)', String(DEFAULT_PORT))
    .option('--host <address>', 'address to listen on; only 127.0.0.1 is allowed', '127.0.0.1')
    .option('--open', 'open the page in the default browser')
    .option('--renderer <dir>', 'serve the renderer build from this folder instead of dist/renderer')
    .option(
      '--allow-dir <dir>',
      'let the page copy folders inside DIR as a workspace (repeatable; none by default)',
      (dir: string, all: string[]) => [...all, dir],
      [] as string[],
    )
    .option(
      '--allow-mcp',
      'let the page name MCP servers: streamable HTTP URLs (stdio programs need --allow-mcp-command)',
    )
    .option(
      '--allow-mcp-command <program>',
      'let the page start MCP servers with this program, exactly as its "command" names it, with any arguments the page gives (so npx or python lets the page run any package or code; repeatable; implies --allow-mcp)',
      (p: string, all: string[]) => [...all, p],
      [] as string[],
    )
    .option(
      '--allow-agent-command <program>',
      'let the page run agent columns (mode "agent") whose command starts with this program, exactly as written, with any arguments the page gives (so python3 lets the page run any Python; repeatable)',
      (p: string, all: string[]) => [...all, p],
      [] as string[],
    )
    .option(
      '--allow-env <name>',
      'let the page give its MCP servers and agent columns this env variable (repeatable; key and token variables, names ending in _API_KEY, _KEY, _TOKEN or _SECRET, need no flag; names interpreters read, such as PYTHONPATH or PERLLIB, are never taken)',
      (p: string, all: string[]) => [...all, p],
      [] as string[],
    )
    .option(
      '--allow-key-env <name>',
      "let the page name this variable of serve's environment as its custom provider's API key (repeatable; none by default)",
      (p: string, all: string[]) => [...all, p],
      [] as string[],
    )
    .action((flags: ServeFlags) => serveCommand(flags));
}

async function serveCommand(flags: ServeFlags): Promise<void> {
  const { checkBindAddress, startWebHost } = await import('../../host/web/web-host.js');
  checkBindAddress(flags.host);
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a number from 1 to 65535 (or 0 for any free port), got "${flags.port}".`);
  const rendererDir = flags.renderer ? resolve(flags.renderer) : defaultRendererDir();
  if (!(await rendererAvailable(rendererDir))) throw new Error(missingRendererMessage(rendererDir));

  const allowDirs = flags.allowDir.map((d) => resolve(d));
  const mcpCommands = flags.allowMcpCommand;
  const allowMcp = flags.allowMcp === true || mcpCommands.length > 0;
  const { suiteHandlers } = await import('../../suite/suite-handlers.js');
  const web = await startWebHost({
    dataDir: resolveDataDir(),
    port,
    bindAddress: flags.host,
    rendererDir,
    allowDirs,
    allowMcp,
    mcpCommands,
    agentCommands: flags.allowAgentCommand,
    allowEnv: flags.allowEnv,
    keyEnv: flags.allowKeyEnv,
    // The suite channels are built on the host, beside it.
    moreHandlers: (host) => suiteHandlers({ dataDir: host.dataDir, openComparison: (id) => host['history:open'](id) }),
  });
  const folders = allowDirs.length ? `Workspace folders allowed inside: ${allowDirs.join(', ')}\n` : '';
  const mcp = allowMcp
    ? `MCP servers from the page: streamable HTTP${mcpCommands.length ? `, and stdio with ${mcpCommands.join(', ')}` : ' only'}\n`
    : '';
  const agents = flags.allowAgentCommand.length
    ? `Agent columns from the page: commands starting with ${flags.allowAgentCommand.join(', ')}\n`
    : '';
  say(`Parallax is served at ${web.url}\nHistory: ${web.host.dataDir}\n${folders}${mcp}${agents}Press Ctrl+C to stop.`);
  if (flags.open) openBrowser(web.url);

  await new Promise<void>((done) => {
    const stop = (): void => {
      say('Stopping: cancelling running comparisons and saving history…');
      void web.close().then(done);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => warn(`Could not open a browser (${cmd}); open the URL above yourself.`));
    child.unref();
  } catch {
    warn('Could not open a browser; open the URL above yourself.');
  }
}
