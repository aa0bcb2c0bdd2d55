/**
 * `parallax compare`: one task through several modes at once, one worker process per mode, released
 * together. Prints a live line per step per mode and a side-by-side summary; the comparison goes to history.
 * With --trials N the modes run N times, in rounds, and the summary adds each mode's average over its trials.
 */
import type { Command } from 'commander';
import type { ComparisonMeta, StoredComparison } from '../../../shared/ipc-contract.js';
import { DEFAULT_MODES, MAX_TRIALS, MODE_IDS, MODE_LABELS, SIM_FAULTS, type ComparisonRequest, type ModeId } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import {
  aggregateByMode, formatPercent, groupByRun, percentDiff, summarizeComparison, summarizeRun, type ModeAggregate, type RunSummary, type Stat,
} from '../../../shared/summary.js';
import { resolveDataDir } from '../../host/data-dir.js';
import { createHost } from '../../host/host.js';
import type { ApprovalPolicyInput } from '../../../shared/approval.js';
import { APPROVE_FLAG_HELP, cliApprovalPolicy, TerminalPrompter } from '../approvals.js';
import { addProviderOptions, readApiKey, resolveProviderFlags, type ProviderFlags } from '../provider-options.js';
import { buildSettings, addSettingsOption } from '../settings-option.js';
import { shellNote, stepLine } from '../step-printer.js';
import {
  averageCostLine, averageCostRow, averageTokensLine, costCell, costRows, meanTokens, priceNote, runCostFields, stepCostFields, tokens, verdictJson, verdictLines,
} from '../cost-output.js';

interface CompareFlags extends ProviderFlags {
  task: string;
  modes: string;
  trials?: string;
  maxSteps?: string;
  workspace?: string;
  json?: boolean;
  fault?: string[];
  settings?: string;
  approve?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('compare')
    .description('run one task through several modes at once, one worker process each, and compare every step and token')
    .requiredOption('--task <id or text>', 'a built-in task id (see `parallax tasks`) or free text')
    .option('--modes <list>', `comma-separated modes: ${MODE_IDS.join(',')}`, DEFAULT_MODES.join(','))
    .option('--trials <n>', `run each mode n times (1–${MAX_TRIALS}), in rounds, and add each mode's average`)
    .option('--max-steps <n>', 'stop each run after this many model requests (default 10)')
    .option('--workspace <dir>', 'copy this folder as every run\'s workspace instead of the task fixture')
    .option('--fault <name...>', `simulated model only: inject faults (${SIM_FAULTS.join(', ')})`)
    .option('--approve <list>', APPROVE_FLAG_HELP)
    .option('--json', 'print one JSON object at the end (live lines go to stderr)');
  addProviderOptions(addSettingsOption(cmd)).action((flags: CompareFlags) => compareCommand(flags));
}

export function parseModes(list: string): ModeId[] {
  const modes = list.split(',').map((m) => m.trim()).filter(Boolean);
  if (modes.length === 0) throw new Error(`--modes needs at least one mode: ${MODE_IDS.join(', ')}.`);
  return modes as ModeId[]; // the host checks names and duplicates, with its own messages
}

export function parseTrials(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_TRIALS) {
    throw new Error(`--trials must be a whole number from 1 to ${MAX_TRIALS}, got "${raw}".`);
  }
  return n;
}

async function compareCommand(flags: CompareFlags): Promise<void> {
  const choice = resolveProviderFlags(flags);
  const apiKey = readApiKey(choice);
  if (flags.fault?.length && !choice.simulated) throw new Error('--fault works only with the simulated model.');
  const settings = buildSettings(flags);
  const tty = process.stdin.isTTY === true;
  const approvals = cliApprovalPolicy(flags.approve, { tty, userFolder: !!flags.workspace, base: settings.approvals as ApprovalPolicyInput | undefined });
  for (const note of approvals.notes) process.stderr.write(`note: ${note}\n`);
  const request: ComparisonRequest = {
    task: flags.task,
    modes: parseModes(flags.modes),
    trials: parseTrials(flags.trials),
    provider: { name: choice.name, baseUrl: choice.baseUrl, model: choice.model, apiKeyEnv: choice.apiKeyEnv },
    settings: { ...settings, approvals: approvals.policy },
    workspaceDir: flags.workspace ?? null,
  };
  // 'ask' prompts here, one request at a time; a wait that ends without an answer (cancel) drops its prompt.
  const prompter = tty ? new TerminalPrompter(process.stdin, process.stderr) : null;
  const waits = new Map<string, AbortController>();
  const live = flags.json ? process.stderr : process.stdout;
  const labels = new Map<string, string>();
  const trials = request.trials ?? 1;
  const trialTag = trials > 1 ? ` #${trials}` : '';
  const width = Math.max(...request.modes.map((m) => (MODE_LABELS[m] ?? m).length)) + trialTag.length;
  const host = createHost({
    dataDir: resolveDataDir(),
    caller: 'cli',
    getApiKey: async () => apiKey,
    onEvents: (batch) => {
      for (const e of batch) {
        const line = liveLine(e, `[${(labels.get(e.runId) ?? e.runId).padEnd(width)}] `);
        if (line) live.write(line + '\n');
        if (e.type === 'approval-resolved') waits.get(e.approvalId)?.abort();
        if (e.type === 'approval-requested' && prompter) {
          const wait = new AbortController();
          waits.set(e.approvalId, wait);
          void prompter.ask({ label: `[${labels.get(e.runId) ?? e.runId}]`, tool: e.tool, args: e.args, signal: wait.signal }).then((answer) => {
            if (answer) void host['approval:answer'](e.runId, e.approvalId, answer).catch((err: Error) => process.stderr.write(`warning: ${err.message}\n`));
          });
        }
      }
    },
    onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
    pool: {},
  });
  // The workers start loading now, while the host checks the request and prepares the workspaces.
  void host.warmPool(request.modes.length);

  let interrupted = false;
  let meta: ComparisonMeta | null = null;
  const onSigint = (): void => {
    if (interrupted) {
      process.stderr.write('Stopping now.\n');
      void host.close().then(() => process.exit(130));
      return;
    }
    interrupted = true;
    process.stderr.write('\nCancelling the runs (Ctrl+C again to stop at once)…\n');
    if (meta) void host['comparison:cancel'](meta.id);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    meta = await host['comparison:start'](request);
    for (const r of meta.runs) labels.set(r.runId, runLabel(r.mode, r.trial ?? 1, trials));
    if (interrupted) await host['comparison:cancel'](meta.id);
    const sim = meta.provider.simulated ? ' (simulated)' : '';
    const vs = request.modes.map((m) => MODE_LABELS[m] ?? m).join(' vs ');
    const rounds = trials > 1 ? `, ${trials} trials each (one round per trial, its modes started together)` : '';
    live.write(`Comparison ${meta.id}: ${meta.task.id ?? 'free-text task'} · ${meta.provider.model}${sim} · ${vs}${rounds}\n`);
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    for (const w of stored.warnings) process.stderr.write(`warning: ${w}\n`);
    if (flags.json) process.stdout.write(JSON.stringify(jsonResult(stored), null, 2) + '\n');
    else process.stdout.write(sideBySide(stored, host.dataDir).join('\n') + '\n');
    const unanswered = noAnswerMessage(stored);
    if (unanswered) {
      process.stderr.write(`${unanswered}\n`);
      process.exitCode = 1;
    }
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    prompter?.close();
    await host.close();
  }
  if (interrupted) process.exitCode = 130;
}

/** Why the comparison has no answer at all (every run ended otherwise), or null when some run answered. */
export function noAnswerMessage(stored: StoredComparison): string | null {
  const runs = runsOf(stored);
  if (runs.some((r) => r.status === 'answered')) return null;
  const trials = trialsOf(runs);
  const why = runs.map((r) => `${runLabel(r.mode, r.trial, trials)}: ${r.status}${r.error ? ` — ${r.error}` : ''}`);
  return `No run answered, so there is nothing to compare.\n${why.map((w) => `  ${w}`).join('\n')}`;
}

function liveLine(e: StepEvent, prefix: string): string | null {
  if (e.type === 'run-started') return `${prefix}started${e.tools.length ? ` (${e.tools.length} tool${e.tools.length === 1 ? '' : 's'} offered)` : ''}${shellNote(e)}`;
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

/** "ReAct", or "ReAct #2" when the modes run more than once. */
export function runLabel(mode: ModeId, trial: number, trials: number): string {
  return `${MODE_LABELS[mode] ?? mode}${trials > 1 ? ` #${trial}` : ''}`;
}

type TrialRun = RunSummary & { readonly trial: number };

/** Every listed run in start order; a run that never finished counts as interrupted. */
function runsOf(stored: StoredComparison): TrialRun[] {
  const byRun = groupByRun(stored.events);
  return stored.meta.runs.map((r) => {
    const s = summarizeRun(byRun.get(r.runId) ?? []);
    return { ...s, runId: r.runId, mode: r.mode, trial: r.trial ?? 1, status: s.status === 'running' ? 'interrupted' : s.status };
  });
}

const trialsOf = (runs: readonly TrialRun[]) => Math.max(1, ...runs.map((r) => r.trial));

export function jsonResult(stored: StoredComparison) {
  const runs = runsOf(stored);
  return {
    comparisonId: stored.meta.id,
    simulated: stored.meta.provider.simulated,
    model: stored.meta.provider.model,
    trials: trialsOf(runs),
    runs: runs.map((s) => ({
      runId: s.runId,
      mode: s.mode,
      trial: s.trial,
      status: s.status,
      answer: s.answer,
      validation: s.validation,
      steps: s.totals.steps,
      usage: { prompt: s.totals.prompt, completion: s.totals.completion, cached: s.totals.cached },
      perStep: s.perStep.map((p) => ({ step: p.step, prompt: p.prompt, completion: p.completion, ...stepCostFields(p) })),
      firstRequestAt: s.firstRequestAt,
      ...runCostFields(s),
    })),
    byMode: aggregateByMode(runs),
    ...verdictJson(summarizeComparison(runs)),
  };
}

const int = (n: number) => n.toLocaleString('en-US');
/** A mean is shown as it is: whole when whole, else to one decimal. */
const num = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: Number.isInteger(n) ? 0 : 1, minimumFractionDigits: Number.isInteger(n) ? 0 : 1 });
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** Rows of label + one cell per column, aligned. */
function table(headers: string[], rows: [string, string[]][]): string[] {
  const labelW = Math.max(...rows.map(([l]) => l.length));
  const colW = headers.map((h, i) => Math.max(h.length, ...rows.map(([, c]) => c[i].length)));
  const line = (label: string, values: string[]) => `${label.padEnd(labelW)}  ${values.map((v, i) => v.padEnd(colW[i])).join('  ')}`.trimEnd();
  return [line('', headers), ...rows.map(([l, c]) => line(l, c))];
}

/** First request of each run after the earliest one of its round (the fairness of that round's start). */
function startGaps(runs: readonly TrialRun[]): Map<string, number | null> {
  const gaps = new Map<string, number | null>();
  for (const r of runs) {
    const firsts = runs.filter((o) => o.trial === r.trial && o.firstRequestAt !== null).map((o) => o.firstRequestAt!);
    gaps.set(r.runId, r.firstRequestAt !== null && firsts.length ? Math.round(r.firstRequestAt - Math.min(...firsts)) : null);
  }
  return gaps;
}

export function sideBySide(stored: StoredComparison, dataDir: string): string[] {
  const runs = runsOf(stored);
  const trials = trialsOf(runs);
  const simulated = stored.meta.provider.simulated;
  const sim = simulated ? ' (simulated)' : '';
  const out = ['', ...(trials > 1 ? perRunRows(runs, sim) : perRunColumns(runs, sim))];
  if (trials > 1) out.push('', ...averages(aggregateByMode(runs), trials, sim));
  else {
    const verdicts = verdictLines(summarizeComparison(runs), sim);
    if (verdicts.length) out.push('', ...verdicts);
  }
  const prices = priceNote(summarizeComparison(runs));
  for (const r of runs) if (r.error) out.push(`${runLabel(r.mode, r.trial, trials)}: ${r.error}`);
  // Answers once per mode and text, with how many runs gave it.
  const answers = new Map<string, number>();
  for (const r of runs.filter((x) => x.answer)) {
    const key = `${MODE_LABELS[r.mode]}\u0000${r.answer.split('\n')[0]}${r.answer.includes('\n') ? ' …' : ''}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  for (const [key, n] of answers) {
    const [mode, text] = key.split('\u0000');
    out.push(`${mode} answered${trials > 1 ? ` (${n} of ${trials})` : ''}: ${text}`);
  }
  if (simulated) out.push('', 'Token counts come from the simulated model: counted with a real tokenizer, not billed by any provider.');
  else if (prices) out.push('', prices);
  out.push(`Stored as ${stored.meta.id} in ${dataDir} (see \`parallax history\`, \`parallax report ${stored.meta.id}\`).`);
  return out;
}

/** One column per run: the summary of a comparison without trials. */
function perRunColumns(runs: readonly TrialRun[], sim: string): string[] {
  const cmp = summarizeComparison(runs);
  const gaps = startGaps(runs);
  const rows: [string, (r: TrialRun) => string][] = [
    ['status', (r) => r.status],
    ['validation', (r) => (r.validation ? (r.validation.ok ? 'PASS' : 'FAIL') : '—')],
    ['steps', (r) => String(r.totals.steps)],
    [`prompt tokens${sim}`, (r) => tokens(r.totals.prompt, r)],
    [`completion tokens${sim}`, (r) => tokens(r.totals.completion, r)],
    [`cached tokens${sim}`, (r) => tokens(r.totals.cached, r)],
    [`total tokens${sim}`, (r) => `${tokens(r.totals.total, r)}${r.runId === cmp.baselineRunId ? '' : ` (${formatPercent(cmp.totalDiffPercent[r.runId] ?? null)})`}`],
    ...(sim ? [] : costRows(cmp)),
    ['tool calls', (r) => String(r.totals.toolCalls)],
    ['wall time', (r) => `${secs(r.totals.wallMs)} s`],
    ['first request', (r) => (gaps.get(r.runId) != null ? `+${gaps.get(r.runId)} ms` : '—')],
    [`prompt per step${sim}`, (r) => r.perStep.map((p) => p.prompt).join(' ') || '—'],
  ];
  return table(runs.map((r) => MODE_LABELS[r.mode] ?? r.mode), rows.map(([l, f]) => [l, runs.map(f)]));
}

/** One row per run (several trials would make too many columns), in start order. */
function perRunRows(runs: readonly TrialRun[], sim: string): string[] {
  const gaps = startGaps(runs);
  const headers = ['status', 'validation', 'steps', 'prompt', 'completion', 'total', ...(sim ? [] : ['cost (USD)']), 'tool calls', 'wall time', 'first request in its round'];
  return [`each run, in start order${sim ? ' (token counts simulated)' : ''}`, ...table(headers, runs.map((r) => [runLabel(r.mode, r.trial, 2), [
    r.status,
    r.validation ? (r.validation.ok ? 'PASS' : 'FAIL') : '—',
    String(r.totals.steps),
    tokens(r.totals.prompt, r),
    tokens(r.totals.completion, r),
    tokens(r.totals.total, r),
    ...(sim ? [] : [costCell(r)]),
    String(r.totals.toolCalls),
    `${secs(r.totals.wallMs)} s`,
    gaps.get(r.runId) != null ? `+${gaps.get(r.runId)} ms` : '—',
  ]]))];
}

/** Each mode's mean and min–max over its answered trials, from aggregateByMode. */
function averages(byMode: readonly ModeAggregate[], trials: number, sim: string): string[] {
  const cell = (s: Stat | null, f: (n: number) => string, unit = '') => (s ? `${f(s.mean)}${unit} (${f(s.min)}–${f(s.max)}${unit})` : '—');
  const base = byMode[0]?.total?.mean ?? null;
  const rows: [string, (a: ModeAggregate) => string][] = [
    ['answered', (a) => `${a.answered}/${a.trials}`],
    ['passed', (a) => `${a.passed}/${a.trials}`],
    ['steps', (a) => cell(a.steps, num)],
    [`prompt tokens${sim}`, (a) => meanTokens(cell(a.prompt, num), a)],
    [`completion tokens${sim}`, (a) => meanTokens(cell(a.completion, num), a)],
    [`total tokens${sim}`, (a) => {
      const diff = a === byMode[0] || !a.total || base === null ? '' : `, ${formatPercent(percentDiff(a.total.mean, base))} vs ${MODE_LABELS[byMode[0].mode]}`;
      return meanTokens(cell(a.total, num), a) + diff;
    }],
    ['wall time', (a) => cell(a.wallMs, secs, ' s')],
    ...(sim ? [] : [averageCostRow(byMode)]),
  ];
  const title = `average over ${trials} trials${sim}, answered runs only: mean (min–max)`;
  const out = [title, ...table(byMode.map((a) => MODE_LABELS[a.mode] ?? a.mode), rows.map(([l, f]) => [l, byMode.map(f)]))];
  const fewest = averageTokensLine(byMode, sim);
  if (fewest) out.push('', fewest);
  const cheapest = sim ? null : averageCostLine(byMode);
  if (cheapest) out.push(cheapest);
  return out;
}
