/** `parallax run`: one task in one mode, in this process, printing a step table as it goes. */
import type { CompositionTracker } from '../../engine/tokens/prompt-composition.js';
import type { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MODE_IDS, SIM_FAULTS, isModeId } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { summarizeRun, type RunSummary } from '../../../shared/summary.js';
import { resolveDataDir } from '../../host/data-dir.js';
import type { ApprovalPolicyInput } from '../../../shared/approval.js';
import { APPROVE_FLAG_HELP, cliApprovalPolicy, TerminalPrompter } from '../approvals.js';
import { addProviderOptions, readApiKey, resolveProviderFlags, type ProviderFlags } from '../provider-options.js';
import { addSettingsOption, buildSettings } from '../settings-option.js';
import { stepHeader, stepLine, summaryLines } from '../step-printer.js';
import { addMcpOption, readMcpFile } from '../mcp-option.js';
import { runCostFields, stepCostFields } from '../cost-output.js';
import { jsonLine, say, sayJson, warn } from '../terminal.js';

interface RunFlags extends ProviderFlags {
  task: string;
  mcp?: string;
  mode: string;
  maxSteps?: string;
  events?: string;
  json?: boolean;
  workspace?: string;
  keepWorkspace?: boolean;
  fault?: string[];
  returnTypes?: boolean;
  settings?: string;
  promptCache?: string;
  approve?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('run')
    .description('run one task in one mode and print every step (the simulated model unless a provider is given)')
    .requiredOption('--task <id or text>', 'a built-in task id (see `parallax tasks`) or free text')
    .option('--mode <mode>', `agent mode: ${MODE_IDS.join(' | ')}`, 'react')
    .option('--max-steps <n>', 'stop after this many model requests (default 10)')
    .option('--events <file.jsonl>', 'write every StepEvent to this file')
    .option('--json', 'print one JSON object at the end instead of the table')
    .option('--workspace <dir>', 'copy this folder as the workspace instead of the task fixture')
    .option('--keep-workspace', 'keep the temporary workspace copy after the run')
    .option('--no-return-types', 'hide return types from the Code Mode catalog')
    .option('--approve <list>', APPROVE_FLAG_HELP)
    .option('--fault <name...>', `simulated model only: inject faults (${SIM_FAULTS.join(', ')})`);
  addProviderOptions(addMcpOption(addSettingsOption(cmd))).action((flags: RunFlags) => runCommand(flags));
}

async function runCommand(flags: RunFlags): Promise<void> {
  // The engine loads here, not at the top: every other command (and --help) starts without it. The shell
  // sandbox's probe (child processes the approval policy and the run's record wait for) runs meanwhile.
  const [
    { runEngine, warmUpEngine },
    { prepareFixture },
    { runTaskOf },
    { EngineServices },
    { prepareRunBase, runSpecOf },
    { PriceStore },
  ] = await Promise.all([
    import('../../engine/run-engine.js'),
    import('../../tasks/fixtures.js'),
    import('../../tasks/index.js'),
    import('../../host/engine-services.js'),
    import('../../host/prepare.js'),
    import('../../host/price-store.js'),
    import('../../engine/sandbox/shell-sandbox.js').then((m) => m.shellSandboxAsync()),
  ]);
  if (!isModeId(flags.mode)) throw new Error(`Unknown mode "${flags.mode}". Use one of: ${MODE_IDS.join(', ')}.`);
  const choice = resolveProviderFlags(flags);
  const apiKey = readApiKey(choice);
  const extra = buildSettings(flags);
  const mcpServers = await readMcpFile(flags.mcp);
  const tty = process.stdin.isTTY === true;
  const approvals = cliApprovalPolicy(flags.approve, {
    tty,
    userFolder: !!flags.workspace,
    base: extra.approvals as ApprovalPolicyInput | undefined,
  });
  for (const note of approvals.notes) warn(`note: ${note}`);
  const cleanups: (() => Promise<void>)[] = [];
  const prompter = tty ? new TerminalPrompter(process.stdin, process.stderr) : null;
  if (prompter) cleanups.push(async () => prompter.close());
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    // The spec is built as the host builds each run of a comparison: same checks, same policy, same price.
    const services = new EngineServices();
    cleanups.push(() => services.close());
    const base = await prepareRunBase(
      {
        task: flags.task,
        provider: {
          name: choice.name,
          baseUrl: choice.baseUrl,
          model: choice.model,
          apiKeyEnv: choice.apiKeyEnv,
          protocol: choice.protocol ?? null,
        },
        // --no-return-types wins over --settings; otherwise --settings may set returnTypes itself.
        settings: {
          ...extra,
          approvals: approvals.policy,
          ...(flags.returnTypes === false ? { returnTypes: false } : {}),
        },
        mcpServers,
      },
      {
        services,
        getApiKey: async () => apiKey,
        keyEnv: 'any',
        userFolder: !!flags.workspace,
        loadPrices: async () => (await new PriceStore(resolveDataDir()).load()).table,
      },
    );
    if (base.settings.simFaults.length && !base.provider.info.simulated)
      throw new Error('--fault works only with the simulated model.');
    const task = base.task;
    const workspace = await mkdtemp(join(tmpdir(), 'parallax-run-'));
    if (!flags.keepWorkspace) cleanups.push(() => rm(workspace, { recursive: true, force: true }));
    if (flags.workspace) await cp(resolve(flags.workspace), workspace, { recursive: true });
    else if (task.id) await prepareFixture(task.id, workspace);
    const spec = runSpecOf(base, { runId: randomUUID(), mode: flags.mode, workspace });
    const runTask = runTaskOf(task);
    await warmUpEngine(spec, runTask);
    const log = flags.events ? createWriteStream(resolve(flags.events)) : null;
    const events: StepEvent[] = [];
    if (!flags.json) {
      const label = spec.provider.simulated ? 'simulated model' : `${choice.name} ${choice.model}`;
      say(
        `Task: ${task.text}\nMode: ${flags.mode} · ${label}${flags.keepWorkspace ? ` · workspace ${workspace}` : ''}\n`,
      );
      say(stepHeader());
    }
    // Prompt composition counts with the tokenizer, which takes a while to load (and holds the thread while it
    // does): it loads once the first request is out and its reply has begun (onResponse), so it delays no request,
    // and events wait for it in order (nothing is printed or logged out of turn).
    let tracker: Promise<CompositionTracker> | null = null;
    const loadTracker = () =>
      (tracker ??= import('../../engine/tokens/prompt-composition.js').then((m) => new m.CompositionTracker()));
    let queue: Promise<void> = Promise.resolve();
    const record = (e: StepEvent) => {
      events.push(e);
      if (log) jsonLine(log, e);
      const line = flags.json ? null : stepLine(e);
      if (line) say(line);
    };
    const pending: StepEvent[] = [];
    await runEngine(
      spec,
      {
        apiKey,
        searchKey: base.searchKey,
        signal: controller.signal,
        ...(prompter
          ? {
              askApproval: async (request, signal) =>
                (await prompter.ask({ label: `[${flags.mode}]`, tool: request.tool, args: request.args, signal })) ??
                'deny',
              askElicitation: async (request, signal) =>
                (await import('../elicitation-prompt.js')).askElicitationOnTerminal(
                  prompter,
                  `[${flags.mode}]`,
                  request,
                  signal,
                ),
            }
          : {}),
        onResponse: () => void loadTracker(),
        emit(raw) {
          // A reply is the first event with something to count: the tracker is needed now, whatever came before.
          if (raw.type === 'model-response') loadTracker();
          if (!tracker) {
            // Before the first reply: nothing to count yet; these events are fed to the tracker once it exists.
            pending.push(raw);
            record(raw);
            return;
          }
          const t = tracker;
          queue = queue.then(async () => {
            const tr = await t;
            for (const p of pending.splice(0)) tr.observe(p);
            record(tr.observe(raw));
          });
        },
      },
      runTask,
    );
    await queue;
    if (log) await new Promise<void>((done, fail) => log.end((err?: Error | null) => (err ? fail(err) : done())));

    const s = summarizeRun(events);
    if (flags.json) {
      sayJson({
        status: s.status,
        answer: s.answer,
        error: s.error,
        validation: s.validation,
        simulated: spec.provider.simulated,
        model: choice.model,
        mode: flags.mode,
        steps: s.totals.steps,
        usage: {
          prompt: s.totals.prompt,
          completion: s.totals.completion,
          cached: s.totals.cached,
          reasoning: s.totals.reasoning,
          total: s.totals.total,
          source: s.usageSource,
        },
        perStep: jsonSteps(events, s),
        ...runCostFields(s),
      });
    } else {
      say(`\n${summaryLines(s, spec.provider.simulated, events).join('\n')}`);
    }
    if (s.status !== 'answered') process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSigint);
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

/**
 * One entry per model response, with its usage as recorded: `usageSource` says whether the provider reported
 * it or Parallax estimated it with the tokenizer (null: no usage at all). Cost figures, when priced, go beside
 * these token figures.
 */
/** Per step: every usage figure as recorded, where it came from, and its cost (summary.perStep is in step order). */
function jsonSteps(events: readonly StepEvent[], s: RunSummary) {
  const responses = events.filter((e) => e.type === 'model-response');
  return responses.map((e, i) => {
    const u = e.usage;
    return {
      step: e.step,
      prompt: u?.prompt ?? 0,
      completion: u?.completion ?? 0,
      cached: u?.cached ?? 0,
      reasoning: u?.reasoning ?? 0,
      total: u ? (u.total ?? u.prompt + u.completion) : 0,
      ...(u?.cacheWrite !== undefined ? { cacheWrite: u.cacheWrite } : {}),
      ...stepCostFields(s.perStep[i]!),
      ...(e.promptComposition ? { promptComposition: e.promptComposition } : {}),
    };
  });
}
