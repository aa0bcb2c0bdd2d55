/**
 * `parallax tools`: every tool a mode would offer, the run's profile, its task's tools and its MCP servers'
 * (--mcp), each with its schema or signature and whether it is visible or found by search_tools. The MCP
 * servers are started as a run starts them (stdio ones in --workspace, default the current folder).
 */
import { realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { MODE_IDS, MODE_LABELS, isModeId, parseSettings, type ModeId } from '../../../shared/run-spec.js';
import { addMcpOption, readMcpFile } from '../mcp-option.js';
import { annotationWords } from '../../../shared/mcp-tools.js';
import { KNOB_IDS, knobOf } from '../../../shared/run-knobs.js';
import { addKnobOptions, knobSettings, type KnobFlags } from '../settings-option.js';
import { say, sayJson, warn } from '../terminal.js';

interface ToolsFlags extends KnobFlags {
  mcp?: string;
  mode?: string;
  task?: string;
  workspace?: string;
  returnTypes?: boolean;
  json?: boolean;
  variants?: string;
  suite?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('tools')
    .description(
      "list the tools each mode offers (built-in, the task's, MCP servers'), with schema or signature, visible or found by search",
    )
    .option('--mode <mode>', `only this mode: ${MODE_IDS.join(' | ')}`)
    .option('--task <id>', 'add the tools this built-in task brings (e.g. tool-catalog)')
    .option('--workspace <dir>', 'folder stdio MCP servers start in (default: the current folder)')
    .option('--no-return-types', 'signatures without return types, as the setting returnTypes: false')
    .option(
      '--variants <file|json>',
      'instead: what each agent column of these variants will see (program, read-only folders, words not shown), before any run',
    )
    .option('--suite <file>', 'instead: what each agent column of this suite file will see')
    .option(
      '--json',
      'print {modes: [{mode, tools: [{name, source, as, offered, parameters | signature}]}], servers, problems}',
    );
  // The knobs that change what is offered, as the run settings of the same names.
  addKnobOptions(
    cmd,
    KNOB_IDS.filter((id) => knobOf(id).changesOffer),
  );
  addMcpOption(cmd).action((flags: ToolsFlags) => toolsCommand(flags));
}

async function toolsCommand(flags: ToolsFlags): Promise<void> {
  if (flags.variants !== undefined || flags.suite !== undefined) return agentColumnsCommand(flags);
  if (flags.mode !== undefined && !isModeId(flags.mode))
    throw new Error(`Unknown mode "${flags.mode}". Use one of: ${MODE_IDS.join(', ')}.`);
  const modes: readonly ModeId[] = flags.mode ? [flags.mode as ModeId] : MODE_IDS;
  const servers = await readMcpFile(flags.mcp);
  const dir = resolve(flags.workspace ?? '.');
  if (
    !(await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    throw new Error(`--workspace ${dir} is not a folder: pass an existing folder.`);
  const workspace = await realpath(dir);
  const settings = parseSettings({ returnTypes: flags.returnTypes !== false, ...knobSettings(flags) });
  const [{ toolsetOf }, { toolOffers, ownTools }, { runTaskOf }] = await Promise.all([
    import('../../engine/modes/toolsets.js'),
    import('../../engine/modes/tool-offer.js'),
    import('../../tasks/index.js'),
  ]);
  const task = flags.task === undefined ? null : runTaskOf({ id: flags.task });
  if (flags.task !== undefined && !task)
    throw new Error(`--task "${flags.task}" is not a built-in task id. See \`parallax tasks\`.`);
  const reserved = [...toolsetOf(settings, task).tools.map((t) => t.name), 'run_code', 'search_tools', 'call_tool'];
  const mcp =
    servers.length > 0
      ? await (await import('../../engine/mcp/mcp-servers.js')).openMcpServers(servers, workspace, reserved)
      : null;
  try {
    const toolset = toolsetOf(settings, task, mcp?.tools ?? []);
    const listing = modes.map((mode) => ({
      mode,
      modeTools: ownTools(mode, settings),
      tools: toolOffers(mode, toolset, settings.returnTypes),
    }));
    const problems = mcp?.problems.map((p) => p.message) ?? [];
    if (flags.json) {
      sayJson({ modes: listing, servers: mcp?.servers ?? [], problems });
    } else {
      for (const { mode, modeTools, tools } of listing) {
        say(`${MODE_LABELS[mode]} (${mode})${modeTools.length ? ` · also offers ${modeTools.join(', ')}` : ''}`);
        const width = Math.max(...tools.map((t) => t.name.length));
        for (const t of tools) {
          const shown = t.signature ?? `(${Object.keys((t.parameters?.properties ?? {}) as object).join(', ')})`;
          // An MCP tool's title and hints (its server's word) follow its signature, in brackets.
          const words = [...(t.title ? [`"${t.title}"`] : []), ...annotationWords(t.annotations)];
          say(
            `  ${t.name.padEnd(width)}  ${t.offered === 'visible' ? 'visible' : 'search '}  ${t.as.padEnd(15)}  ${t.source.padEnd(9)}  ${shown}${words.length ? `  [${words.join(', ')}]` : ''}`,
          );
        }
        say('');
      }
      for (const server of mcp?.servers ?? [])
        say(`MCP server "${server.name}": ${server.tools} tool${server.tools === 1 ? '' : 's'}`);
    }
    // A failing server is a warning, as on every run: the listing shows the tools the others brought.
    for (const problem of problems) warn(`warning: ${problem}`);
  } finally {
    await mcp?.close();
  }
}

/** `parallax tools --variants FILE | --suite FILE`: each agent column's program as it would start, and what it would see. */
async function agentColumnsCommand(flags: ToolsFlags): Promise<void> {
  if (flags.variants !== undefined && flags.suite !== undefined)
    throw new Error('Give either --variants or --suite, not both.');
  const [{ agentViews, agentViewText }, { shellSandbox }, { resolveDataDir }] = await Promise.all([
    import('../agent-view.js'),
    import('../../engine/sandbox/shell-sandbox.js'),
    import('../../host/data-dir.js'),
  ]);
  let variants;
  if (flags.suite !== undefined) {
    const [{ loadSuite }, { anchorAgentPaths }] = await Promise.all([
      import('../../suite/load-suite.js'),
      import('../agent-paths.js'),
    ]);
    const suite = await loadSuite(flags.suite);
    variants = suite.variants ? anchorAgentPaths(suite.variants, dirname(resolve(flags.suite))) : [];
  } else {
    const { readVariantsFlags } = await import('../variants-option.js');
    variants = (await readVariantsFlags({ variants: flags.variants, modes: '' }, false)) ?? [];
  }
  const views = await agentViews(variants, resolveDataDir());
  const sandbox = shellSandbox();
  if (flags.json) {
    sayJson({ sandbox: { kind: sandbox.kind, reason: sandbox.reason }, agents: views });
  } else if (views.length === 0) {
    say(
      `${flags.suite ?? 'These variants'} ${flags.suite ? 'has' : 'have'} no agent column (mode "agent"): nothing of this machine is run.`,
    );
  } else {
    say(views.map((v) => agentViewText(v, sandbox).join('\n')).join('\n\n'));
  }
  const failed = views.filter((v) => v.error);
  if (failed.length) {
    warn(
      `${failed.length === 1 ? 'One agent column' : `${failed.length} agent columns`} cannot run as written: ${failed.map((v) => v.label).join(', ')}.`,
    );
    process.exitCode = 1;
  }
}
