/**
 * `parallax compare`: one task through several modes at once, one worker process per mode, released
 * together. Prints a live line per step per mode and a side-by-side summary; the comparison goes to history.
 */
import type { Command } from 'commander';
import type { ComparisonMeta, StoredComparison } from '../../../shared/ipc-contract.js';
import { MODE_IDS, MODE_LABELS, type ComparisonRequest, type ModeId, type SimFault } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { formatPercent, groupByRun, summarizeComparison, summarizeRun, type RunSummary } from '../../../shared/summary.js';
import { resolveDataDir } from '../../host/data-dir.js';
import { createHost } from '../../host/host.js';
import { addProviderOptions, readApiKey, resolveProviderFlags, type ProviderFlags } from '../provider-options.js';
import { stepLine } from '../step-printer.js';

interface CompareFlags extends ProviderFlags {
  task: string;
  modes: string;
  maxSteps?: string;
  workspace?: string;
  json?: boolean;
  fault?: string[];
  settings?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('compare')
    .description('run one task through several modes at once, one worker process each, and compare every step and token')
    .requiredOption('--task <id or text>', 'a built-in task id (see `parallax tasks`) or free text')
    .option('--modes <list>', `comma-separated modes: ${MODE_IDS.join(',')}`, MODE_IDS.join(','))
    .option('--max-steps <n>', 'stop each run after this many model requests (default 10)')
    .option('--workspace <dir>', 'copy this folder as every run\'s workspace instead of the task fixture')
    .option('--fault <name...>', 'simulated model only: inject faults (429-once, 500, hang, malformed-args, unknown-tool, loop-forever)')
    .option('--settings <json>', 'more run settings as JSON, e.g. \'{"returnTypes":false}\'')
    .option('--json', 'print one JSON object at the end (live lines go to stderr)');
  addProviderOptions(cmd).action((flags: CompareFlags) => compareCommand(flags));
}

export function parseModes(list: string): ModeId[] {
  const modes = list.split(',').map((m) => m.trim()).filter(Boolean);
  if (modes.length === 0) throw new Error(`--modes needs at least one mode: ${MODE_IDS.join(', ')}.`);
  return modes as ModeId[]; // the host checks names and duplicates, with its own messages
}

function buildSettings(flags: CompareFlags): Record<string, unknown> {
  let extra: Record<string, unknown> = {};
  if (flags.settings) {
    try {
      extra = JSON.parse(flags.settings) as Record<string, unknown>;
    } catch {
      throw new Error(`--settings must be a JSON object, e.g. '{"maxSteps":5}'. Got: ${flags.settings}`);
    }
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('--settings must be a JSON object.');
  }
  if (flags.maxSteps !== undefined) {
    const n = Number(flags.maxSteps);
    if (!Number.isInteger(n)) throw new Error(`--max-steps must be a whole number, got "${flags.maxSteps}".`);
    extra.maxSteps = n;
  }
  if (flags.fault?.length) extra.simFaults = flags.fault as SimFault[];
  return extra;
}

async function compareCommand(flags: CompareFlags): Promise<void> {
  const choice = resolveProviderFlags(flags);
  const apiKey = readApiKey(choice);
  if (flags.fault?.length && !choice.simulated) throw new Error('--fault works only with the simulated model.');
  const request: ComparisonRequest = {
    task: flags.task,
    modes: parseModes(flags.modes),
    provider: { name: choice.name, baseUrl: choice.baseUrl, model: choice.model, apiKeyEnv: choice.apiKeyEnv },
    settings: buildSettings(flags),
    workspaceDir: flags.workspace ?? null,
  };
  const live = flags.json ? process.stderr : process.stdout;
  const labels = new Map<string, string>();
  const width = Math.max(...request.modes.map((m) => (MODE_LABELS[m] ?? m).length));
  const host = createHost({
    dataDir: resolveDataDir(),
    getApiKey: async () => apiKey,
    onEvents: (batch) => {
      for (const e of batch) {
        const line = liveLine(e, `[${(labels.get(e.runId) ?? e.runId).padEnd(width)}] `);
        if (line) live.write(line + '\n');
      }
    },
    onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
  });

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
    for (const r of meta.runs) labels.set(r.runId, MODE_LABELS[r.mode] ?? r.mode);
    if (interrupted) await host['comparison:cancel'](meta.id);
    const sim = meta.provider.simulated ? ' (simulated)' : '';
    live.write(`Comparison ${meta.id}: ${meta.task.id ?? 'free-text task'} · ${meta.provider.model}${sim} · ${meta.runs.map((r) => labels.get(r.runId)).join(' vs ')}\n`);
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    for (const w of stored.warnings) process.stderr.write(`warning: ${w}\n`);
    if (flags.json) process.stdout.write(JSON.stringify(jsonResult(stored), null, 2) + '\n');
    else process.stdout.write(sideBySide(stored, host.dataDir).join('\n') + '\n');
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await host.close();
  }
  if (interrupted) process.exitCode = 130;
}

function liveLine(e: StepEvent, prefix: string): string | null {
  if (e.type === 'run-started') return `${prefix}started${e.tools.length ? ` (${e.tools.length} tool${e.tools.length === 1 ? '' : 's'} offered)` : ''}`;
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

function runsOf(stored: StoredComparison): RunSummary[] {
  const byRun = groupByRun(stored.events);
  return stored.meta.runs.map((r) => {
    const s = summarizeRun(byRun.get(r.runId) ?? []);
    return { ...s, runId: r.runId, mode: r.mode, status: s.status === 'running' ? 'interrupted' : s.status };
  });
}

export function jsonResult(stored: StoredComparison) {
  return {
    comparisonId: stored.meta.id,
    simulated: stored.meta.provider.simulated,
    model: stored.meta.provider.model,
    runs: runsOf(stored).map((s) => ({
      mode: s.mode,
      status: s.status,
      answer: s.answer,
      validation: s.validation,
      steps: s.totals.steps,
      usage: { prompt: s.totals.prompt, completion: s.totals.completion, cached: s.totals.cached },
      perStep: s.perStep.map((p) => ({ step: p.step, prompt: p.prompt, completion: p.completion })),
      firstRequestAt: s.firstRequestAt,
    })),
  };
}

const int = (n: number) => n.toLocaleString('en-US');

export function sideBySide(stored: StoredComparison, dataDir: string): string[] {
  const runs = runsOf(stored);
  const cmp = summarizeComparison(runs);
  const sim = stored.meta.provider.simulated ? ' (simulated)' : '';
  const firsts = runs.map((r) => r.firstRequestAt).filter((t): t is number => t !== null);
  const t0 = firsts.length ? Math.min(...firsts) : null;
  const rows: [string, (r: RunSummary) => string][] = [
    ['status', (r) => r.status],
    ['validation', (r) => (r.validation ? (r.validation.ok ? 'PASS' : 'FAIL') : '—')],
    ['steps', (r) => String(r.totals.steps)],
    [`prompt tokens${sim}`, (r) => int(r.totals.prompt)],
    [`completion tokens${sim}`, (r) => int(r.totals.completion)],
    [`cached tokens${sim}`, (r) => int(r.totals.cached)],
    [`total tokens${sim}`, (r) => `${int(r.totals.total)}${r.runId === cmp.baselineRunId ? '' : ` (${formatPercent(cmp.totalDiffPercent[r.runId] ?? null)})`}`],
    ['tool calls', (r) => String(r.totals.toolCalls)],
    ['wall time', (r) => `${(r.totals.wallMs / 1000).toFixed(1)} s`],
    ['first request', (r) => (r.firstRequestAt !== null && t0 !== null ? `+${Math.round(r.firstRequestAt - t0)} ms` : '—')],
    [`prompt per step${sim}`, (r) => r.perStep.map((p) => p.prompt).join(' ') || '—'],
  ];
  const headers = runs.map((r) => MODE_LABELS[r.mode] ?? r.mode);
  const cells = rows.map(([, f]) => runs.map(f));
  const labelW = Math.max(...rows.map(([l]) => l.length));
  const colW = runs.map((_, i) => Math.max(headers[i].length, ...cells.map((c) => c[i].length)));
  const line = (label: string, values: string[]) => `${label.padEnd(labelW)}  ${values.map((v, i) => v.padEnd(colW[i])).join('  ')}`.trimEnd();
  const out = ['', line('', headers), ...rows.map(([l], i) => line(l, cells[i]))];
  if (cmp.cheapestRunId) out.push('', `Fewest tokens${sim}: ${MODE_LABELS[runs.find((r) => r.runId === cmp.cheapestRunId)!.mode]}.`);
  for (const r of runs) {
    if (r.error) out.push(`${MODE_LABELS[r.mode]}: ${r.error}`);
    else if (r.answer) out.push(`${MODE_LABELS[r.mode]} answered: ${r.answer.split('\n')[0]}${r.answer.includes('\n') ? ' …' : ''}`);
  }
  if (stored.meta.provider.simulated) out.push('', 'Token counts come from the simulated model: counted with a real tokenizer, not billed by any provider.');
  out.push(`Stored as ${stored.meta.id} in ${dataDir} (see \`parallax history\`, \`parallax report ${stored.meta.id}\`).`);
  return out;
}
