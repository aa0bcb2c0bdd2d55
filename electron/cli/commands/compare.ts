/**
 * `parallax compare`: one task through several modes at once, one worker process per mode, released
 * together. Prints a live line per step per mode and a side-by-side summary; the comparison goes to history.
 * With --trials N the modes run N times, in rounds, and the summary adds each mode's average over its trials.
 * With --variants (or --models × --modes) the columns are variants: a mode with its own model or settings.
 */
import type { Command } from 'commander';
import type { ComparisonMeta, ElicitationReply } from '../../../shared/ipc-contract.js';
import {
  checkTrials,
  DEFAULT_MODES,
  MAX_TRIALS,
  MODE_IDS,
  MODE_LABELS,
  SIM_FAULTS,
  type ComparisonRequest,
  type ModeId,
} from '../../../shared/run-spec.js';
import { checkConcurrency } from '../../../shared/concurrency.js';
import { workerProgramOf } from '../../../shared/modes.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { resolveDataDir } from '../../host/data-dir.js';
import type { ApprovalPolicyInput } from '../../../shared/approval.js';
import { APPROVE_FLAG_HELP, cliApprovalPolicy, TerminalPrompter } from '../approvals.js';
import { addProviderOptions, readApiKey, resolveProviderFlags, type ProviderFlags } from '../provider-options.js';
import { buildSettings, addSettingsOption } from '../settings-option.js';
import { addOtlpOptions, otlpTargetOf, sendToOtlp, type OtlpFlags } from '../otlp-options.js';
import { shellNote, stepHeader, stepLine } from '../step-printer.js';
import { addMcpOption, readMcpFile } from '../mcp-option.js';
import { readVariantsFlags, withColumnModel, type VariantsFlags } from '../variants-option.js';
import { say, sayJson, warn as printWarning, write } from '../terminal.js';

interface CompareFlags extends ProviderFlags, OtlpFlags, VariantsFlags {
  task: string;
  modes: string;
  trials?: string;
  concurrency?: string;
  maxSteps?: string;
  workspace?: string;
  json?: boolean;
  fault?: string[];
  settings?: string;
  promptCache?: string;
  approve?: string;
  mcp?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('compare')
    .description(
      'run one task through several modes at once, one worker process each, and compare every step and token',
    )
    .requiredOption('--task <id or text>', 'a built-in task id (see `parallax tasks`) or free text')
    .option('--modes <list>', `comma-separated modes: ${MODE_IDS.join(',')}`, DEFAULT_MODES.join(','))
    .option(
      '--variants <file|json>',
      'the columns instead of --modes: a .json file or inline JSON, e.g. \'[{"mode":"code","settings":{"returnTypes":false}},{"mode":"code"}]\' (each: mode, and optionally model, provider, baseUrl, apiKeyEnv, protocol, settings, label)',
    )
    .option(
      '--models <list>',
      'comma-separated models: every model × every mode of --modes (a matrix), on the provider of --provider/--base-url',
    )
    .option('--trials <n>', `run each mode n times (1–${MAX_TRIALS}), in rounds, and add each mode's average`)
    .option('--concurrency <n>', CONCURRENCY_HELP)
    .option('--max-steps <n>', 'stop each run after this many model requests (default 10)')
    .option('--workspace <dir>', "copy this folder as every run's workspace instead of the task fixture")
    .option('--fault <name...>', `simulated model only: inject faults (${SIM_FAULTS.join(', ')})`)
    .option('--approve <list>', APPROVE_FLAG_HELP)
    .option('--json', 'print one JSON object at the end (live lines go to stderr)');
  addOtlpOptions(addProviderOptions(addMcpOption(addSettingsOption(cmd)))).action(
    (flags: CompareFlags, command: Command) =>
      compareCommand(flags, command.getOptionValueSource('modes') !== 'default'),
  );
}

export function parseModes(list: string): ModeId[] {
  const modes = list
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (modes.length === 0) throw new Error(`--modes needs at least one mode: ${MODE_IDS.join(', ')}.`);
  return modes as ModeId[]; // the host checks names and duplicates, with its own messages
}

export function parseTrials(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const checked = checkTrials(raw);
  if (checked.error !== null)
    throw new Error(
      `--trials must be a whole number from 1 to ${MAX_TRIALS}, got "${raw}" (${checked.error.replace(/\.$/, '').toLowerCase()}).`,
    );
  return checked.trials;
}

export const CONCURRENCY_HELP =
  'rounds in flight at once (each round still starts its modes together; default: simulated one per two cores, a real provider 1; a 429 lowers it)';

/** --concurrency N, checked against the provider's cap; undefined: the host's default. */
export function parseConcurrency(raw: string | undefined, providerName: string): number | undefined {
  if (raw === undefined) return undefined;
  const checked = checkConcurrency(raw, providerName);
  if (checked.error !== null) throw new Error(`--concurrency: ${checked.error} Got "${raw}".`);
  return checked.concurrency;
}

async function compareCommand(flags: CompareFlags, modesGiven: boolean): Promise<void> {
  const variants = await readVariantsFlags(flags, modesGiven);
  if (flags.models && flags.model)
    throw new Error('Give either --model (one model) or --models (a matrix of models × modes), not both.');
  const choice = resolveProviderFlags(withColumnModel(flags, variants));
  const apiKey = readApiKey(choice);
  if (flags.fault?.length && !choice.simulated) throw new Error('--fault works only with the simulated model.');
  const settings = buildSettings(flags);
  const modes = variants ? [...new Set(variants.map((v) => v.mode))] : parseModes(flags.modes);
  // The first round's workers start now, before the host and the simulated model load (and before the shell
  // sandbox's probe, which runs meanwhile): on a small machine their loading overlaps the rest of this start
  // instead of following it. The host then takes them.
  // Usually they started sooner still, before this file loaded (early-workers.ts): those are taken here.
  const [{ forkLauncher, workerEnvironment }, { WorkerPool }, { shellSandboxAsync }, { takeEarlyWorkers }] =
    await Promise.all([
      import('../../host/launcher.js'),
      import('../../host/worker-pool.js'),
      import('../../engine/sandbox/shell-sandbox.js'),
      import('../early-workers.js'),
    ]);
  const early = takeEarlyWorkers();
  const launcher = early?.launcher ?? forkLauncher();
  const warn = (m: string): void => printWarning(`warning: ${m}`);
  const pool = early?.pool ?? new WorkerPool(launcher, workerEnvironment(process.env), { warn });
  // Each column's worker prepares for its mode's programs (worker-hints.ts).
  const columns = (variants ?? modes.map((mode) => ({ mode }))).map((c) => workerProgramOf(c.mode));
  void pool.warm(columns, false);
  let request: ComparisonRequest;
  let otlp: ReturnType<typeof otlpTargetOf>;
  const tty = process.stdin.isTTY === true;
  try {
    otlp = otlpTargetOf(flags);
    await shellSandboxAsync();
    const approvals = cliApprovalPolicy(flags.approve, {
      tty,
      userFolder: !!flags.workspace,
      base: settings.approvals as ApprovalPolicyInput | undefined,
    });
    for (const note of approvals.notes) printWarning(`note: ${note}`);
    if (variants?.some((v) => v.agent)) {
      const { agentProgramsNote } = await import('../agent-view.js');
      printWarning(
        agentProgramsNote(
          variants,
          flags.variants?.trim().startsWith('[') ? '--variants' : `the variants file ${flags.variants}`,
          (await shellSandboxAsync()).kind,
        )!,
      );
    }
    request = {
      task: flags.task,
      modes,
      ...(variants ? { variants } : {}),
      trials: parseTrials(flags.trials),
      concurrency: parseConcurrency(flags.concurrency, choice.name),
      provider: {
        name: choice.name,
        baseUrl: choice.baseUrl,
        model: choice.model,
        apiKeyEnv: choice.apiKeyEnv,
        protocol: choice.protocol ?? null,
      },
      settings: { ...settings, approvals: approvals.policy },
      mcpServers: await readMcpFile(flags.mcp),
      workspaceDir: flags.workspace ?? null,
    };
  } catch (err) {
    pool.close();
    throw err;
  }
  // Loaded here, not at the top: every other command (and --help) starts without the host and the reports.
  const [{ createHost }, { columnLabels, jsonResult, noAnswerMessage, runLabel, sideBySide }] = await Promise.all([
    import('../../host/host.js'),
    import('../compare-output.js'),
  ]).catch((err: unknown) => {
    pool.close();
    throw err;
  });
  // 'ask' prompts here, one request at a time; a wait that ends without an answer (cancel) drops its prompt.
  const prompter = tty ? new TerminalPrompter(process.stdin, process.stderr) : null;
  const waits = new Map<string, AbortController>();
  const live = flags.json ? process.stderr : process.stdout;
  const labels = new Map<string, string>();
  const trials = request.trials ?? 1;
  const trialTag = trials > 1 ? ` #${trials}` : '';
  let width = Math.max(...request.modes.map((m) => (MODE_LABELS[m] ?? m).length)) + trialTag.length;
  let headed = false;
  const pending: StepEvent[] = [];
  const printLive = (e: StepEvent): void => {
    const line = liveLine(e, `[${(labels.get(e.runId) ?? e.runId).padEnd(width)}] `);
    if (line) write(live, line + '\n');
  };
  const host = createHost({
    dataDir: resolveDataDir(),
    caller: 'cli',
    // The comparison's key as read above; a column on another provider reads its own variable (keys stay bound).
    getApiKey: async (_info, keyEnv) =>
      keyEnv === choice.apiKeyEnv ? apiKey : keyEnv ? process.env[keyEnv]?.trim() || null : null,
    onEvents: (batch) => {
      for (const e of batch) {
        // Until the comparison's columns are known (and their heads printed), lines wait: every line then
        // starts with its column's label, as the app names it, under the heads.
        if (!headed) pending.push(e);
        else printLive(e);
        if (e.type === 'approval-resolved') waits.get(e.approvalId)?.abort();
        if (e.type === 'elicitation' && e.elicitationId) waits.get(`${e.runId} ${e.elicitationId}`)?.abort();
        if (e.type === 'elicitation-requested' && prompter) {
          const wait = new AbortController();
          waits.set(`${e.runId} ${e.elicitationId}`, wait);
          void import('../elicitation-prompt.js')
            .then(({ askElicitationOnTerminal }) =>
              askElicitationOnTerminal(prompter, `[${labels.get(e.runId) ?? e.runId}]`, e, wait.signal),
            )
            .then(
              (reply) => {
                if (!wait.signal.aborted)
                  void host['elicitation:answer'](e.runId, e.elicitationId, reply as ElicitationReply).catch(
                    (err: Error) => warn(err.message),
                  );
              },
              () => undefined,
            );
        }
        if (e.type === 'approval-requested' && prompter) {
          const wait = new AbortController();
          waits.set(e.approvalId, wait);
          void prompter
            .ask({ label: `[${labels.get(e.runId) ?? e.runId}]`, tool: e.tool, args: e.args, signal: wait.signal })
            .then((answer) => {
              if (answer)
                void host['approval:answer'](e.runId, e.approvalId, answer).catch((err: Error) => warn(err.message));
            });
        }
      }
    },
    onWarning: warn,
    launcher,
    pool: { instance: pool },
    // On a terminal a server's form is asked here; without one nobody can answer it and the engine declines it.
    elicitation: prompter !== null,
  });
  // The host takes the first round's workers from the pool (started above); the tokenizer for prompt composition
  // loads with the first reply, not beside the workers' loading.
  void host.warmPool(columns.length);

  let interrupted = false;
  let meta: ComparisonMeta | null = null;
  const onSigint = (): void => {
    if (interrupted) {
      printWarning('Stopping now.');
      void host.close().then(() => process.exit(130));
      return;
    }
    interrupted = true;
    printWarning('\nCancelling the runs (Ctrl+C again to stop at once)…');
    if (meta) void host['comparison:cancel'](meta.id);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    meta = await host['comparison:start'](request);
    for (const [runId, label] of columnLabels(meta))
      labels.set(runId, runLabel(label, meta.runs.find((r) => r.runId === runId)?.trial ?? 1, trials));
    width = Math.max(width, ...[...labels.values()].map((l) => l.length));
    if (interrupted) await host['comparison:cancel'](meta.id);
    const sim = meta.provider.simulated ? ' (simulated)' : '';
    const vs = meta.variants
      ? meta.variants.map((v) => v.label).join(' vs ')
      : request.modes.map((m) => MODE_LABELS[m] ?? m).join(' vs ');
    const atOnce = meta.concurrency ? `, up to ${meta.concurrency} rounds at once` : '';
    const rounds =
      trials > 1 ? `, ${trials} trials each (one round per trial, its modes started together${atOnce})` : '';
    write(
      live,
      `Comparison ${meta.id}: ${meta.task.id ?? 'free-text task'} · ${meta.provider.model}${sim} · ${vs}${rounds}\n`,
    );
    // Column heads over the per-step lines, aligned with their prefix.
    write(live, `${stepHeader(' '.repeat(width + 3))}${sim ? '   (tokens simulated)' : ''}\n`);
    headed = true;
    for (const e of pending.splice(0)) printLive(e);
    const notRecorded = await host.whenDone(meta.id);
    if (notRecorded.size > 0) {
      // Never "Stored as…" for a comparison whose records are incomplete: say which runs and what to do.
      for (const [runId, why] of notRecorded) printWarning(`[${labels.get(runId) ?? runId}] not recorded: ${why}`);
      printWarning(
        `error: comparison ${meta.id} was not stored completely (${notRecorded.size} of ${meta.runs.length} runs not recorded in ${host.dataDir}). ` +
          'Free space on that disk (or set PARALLAX_DATA_DIR to a folder on a disk with room) and run the comparison again; ' +
          '`parallax history` lists what was kept.',
      );
      process.exitCode = 1;
      return;
    }
    const stored = await host['history:open'](meta.id);
    for (const w of stored.warnings) warn(w);
    if (flags.json) sayJson(jsonResult(stored));
    else say(sideBySide(stored, host.dataDir).join('\n'));
    const unanswered = noAnswerMessage(stored);
    if (unanswered) {
      printWarning(unanswered);
      process.exitCode = 1;
    }
    if (otlp) await sendToOtlp(stored, otlp);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    prompter?.close();
    await host.close();
  }
  if (interrupted) process.exitCode = 130;
}

function liveLine(e: StepEvent, prefix: string): string | null {
  if (e.type === 'run-started')
    return `${prefix}started${e.tools.length ? ` (${e.tools.length} tool${e.tools.length === 1 ? '' : 's'} offered)` : ''}${shellNote(e)}`;
  if (e.type === 'code-run') {
    const err = e.error ? ` · error${e.error.line !== null ? ` at line ${e.error.line}` : ''}: ${e.error.message}` : '';
    return `${prefix}       run_code: ${e.toolCalls.length} tool calls inside, ${e.printedBytes} B printed of ${e.toolBytes} B returned${err}`;
  }
  if (e.type === 'run-finished') {
    const v = e.validation ? ` · validation ${e.validation.ok ? 'PASS' : 'FAIL'}` : '';
    const err = e.error ? ` — ${e.error}` : '';
    return `${prefix}${e.status} after ${e.totals.steps} steps · ${e.totals.total} tokens${v}${err}`;
  }
  return stepLine(e, prefix);
}
