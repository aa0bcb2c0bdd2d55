/**
 * `parallax suite run|list|show|report`: many tasks through the same modes and trials, one comparison per
 * task (as `parallax compare` runs it), and a leaderboard per task and overall. The host, the sandbox and the
 * reports are imported inside the actions, so `parallax --help` stays fast.
 */
import { dirname, resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import type { ApprovalPolicyInput } from '../../../shared/approval.js';
import { DEFAULT_MODES, isModeId, MAX_TRIALS, MODE_IDS, MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';
import type { SuiteRecord } from '../../../shared/suite.js';
import { formatNamed, SUITE_REPORT_FORMATS, unknownFormatMessage } from '../../../shared/report-formats.js';
import { addProviderOptions, readApiKey, resolveProviderFlags, type ProviderFlags } from '../provider-options.js';
import { addSettingsOption, buildSettings } from '../settings-option.js';
import { say, sayDocument, sayJson, warn, write } from '../terminal.js';

interface SuiteRunFlags extends ProviderFlags {
  modes?: string;
  variants?: string;
  models?: string;
  trials?: string;
  limit?: string;
  concurrency?: string;
  maxSteps?: string;
  settings?: string;
  approve?: string;
  allowEnv: string[];
  json?: boolean;
}

export function register(program: Command): void {
  const suite = program
    .command('suite')
    .description(
      'run a suite of tasks through several modes and rank the modes (pass rate, tokens, cost, steps, time)',
    );
  const run = suite
    .command('run')
    .description('run every task of a suite, one comparison per task, then print the leaderboard')
    .argument(
      '<suite>',
      '"builtin" (every built-in task), "history" (every built-in task, ReAct under full, window:2, clear-results:2, clear-results:4 and summarize:3 history vs Code Mode, 3 trials), "m3tooleval" (the CodeAct paper\'s 82 tasks; "m3tooleval:dna_sequencer" for one domain, several joined with commas) or a suite file (.json, .yaml, .yml); a suite file may carry agent columns, programs it runs on this machine (see what each sees: parallax tools --suite FILE)',
    )
    .option(
      '--modes <list>',
      `comma-separated modes: ${MODE_IDS.join(',')} (default: the suite's, else ${DEFAULT_MODES.join(',')})`,
    )
    .option(
      '--variants <file|json>',
      "the columns instead of modes, as for `parallax compare --variants` (default: the suite's)",
    )
    .option('--models <list>', "comma-separated models: every model × every mode of --modes (or the suite's modes)")
    .option('--trials <n>', `runs per mode and task, 1–${MAX_TRIALS} (default: the suite's, else 1)`)
    .option('--limit <n>', 'run only the first n tasks of the suite, in its order')
    .option(
      '--concurrency <n>',
      "rounds in flight at once, across the suite's comparisons (default: simulated one per two cores, a real provider 1; a 429 lowers it)",
    )
    .option('--max-steps <n>', 'stop each run after this many model requests (default 10)')
    .option('--approve <list>', 'approval policy as for `parallax compare` (no prompts: "ask" becomes deny)')
    .option(
      '--allow-env <name>',
      "let the suite file's agent columns set this env variable (repeatable; key and token variables need no flag; names interpreters read, such as PYTHONPATH, are never taken from a suite file)",
      (p: string, all: string[]) => [...all, p],
      [] as string[],
    )
    .option('--json', 'print the leaderboard as JSON (progress goes to stderr)');
  addProviderOptions(addSettingsOption(run)).action((file: string, flags: SuiteRunFlags) => suiteRun(file, flags));
  suite
    .command('list')
    .description('list the stored suite runs, newest first')
    .option('--json', 'print JSON')
    .action((flags: { json?: boolean }) => suiteList(flags));
  suite
    .command('show')
    .description('print the leaderboard of a stored suite run (recomputed from its stored comparisons)')
    .argument('<id>', 'a suite run id (see `parallax suite list`), a unique prefix, or "latest"')
    .option('--json', 'print JSON')
    .action((id: string, flags: { json?: boolean }) => suiteShow(id, flags));
  suite
    .command('report')
    .description('write a report of a stored suite run')
    .argument('<id>', 'a suite run id, a unique prefix, or "latest"')
    .option('-f, --format <format>', SUITE_REPORT_FORMATS.join(' | '), 'md')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action((id: string, flags: { format: string; output?: string }) => suiteReportCommand(id, flags));
}

function parseModes(list: string): ModeId[] {
  const modes = list
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (modes.length === 0) throw new Error(`--modes needs at least one mode: ${MODE_IDS.join(', ')}.`);
  // Checked here, before the first task, rather than failing every task the same way.
  const unknown = modes.filter((m) => !isModeId(m));
  if (unknown.length)
    throw new Error(
      `--modes: ${unknown.map((m) => `"${m}"`).join(', ')} ${unknown.length === 1 ? 'is not a mode' : 'are not modes'}; use ${MODE_IDS.join(', ')}.`,
    );
  if (new Set(modes).size !== modes.length) throw new Error('--modes lists a mode twice; list each once.');
  return modes as ModeId[];
}

async function suiteRun(file: string, flags: SuiteRunFlags): Promise<void> {
  const [
    { loadSuite },
    { runSuite },
    { SuiteStore },
    { openSuite },
    { suiteJson, suiteText },
    { createHost },
    { resolveDataDir },
    { parseTrials, parseConcurrency },
    { cliApprovalPolicy },
    { disposeSharedSandbox },
  ] = await Promise.all([
    import('../../suite/load-suite.js'),
    import('../../suite/run-suite.js'),
    import('../../suite/suite-store.js'),
    import('../../suite/suite-data.js'),
    import('../../suite/suite-report.js'),
    import('../../host/host.js'),
    import('../../host/data-dir.js'),
    import('./compare.js'),
    import('../approvals.js'),
    import('../../engine/sandbox/index.js'),
  ]);
  const { limitSuite } = await import('../../../shared/task-set-suites.js');
  const suite = limitSuite(await loadSuite(file), flags.limit);
  const settings = { ...(suite.settings ?? {}), ...buildSettings(flags) };
  const approvals = cliApprovalPolicy(flags.approve, {
    tty: false,
    userFolder: suite.fixtures.size > 0,
    base: settings.approvals as ApprovalPolicyInput | undefined,
  });
  const { readVariantsFlags, withColumnModel } = await import('../variants-option.js');
  // --variants or --models (with --modes or the suite's modes) win; else --modes; else the suite's columns.
  const fromFlags = await readVariantsFlags(
    { variants: flags.variants, models: flags.models, modes: flags.modes ?? (suite.modes ?? DEFAULT_MODES).join(',') },
    flags.modes !== undefined && flags.variants !== undefined,
  );
  // A suite's agent columns name their scripts relative to the suite file.
  const { anchorAgentPaths } = await import('../agent-paths.js');
  const own = suite.variants ? anchorAgentPaths(suite.variants, dirname(resolvePath(file))) : null;
  const variants = fromFlags ?? (flags.modes ? null : own);
  if (own && variants === own)
    (await import('../../host/agent-access.js')).checkSuiteAgentEnv(own, flags.allowEnv ?? [], file);
  const modes = variants
    ? [...new Set(variants.map((v) => v.mode))]
    : flags.modes
      ? parseModes(flags.modes)
      : [...(suite.modes ?? DEFAULT_MODES)];
  const choice = resolveProviderFlags(withColumnModel(flags, variants ?? null));
  const apiKey = readApiKey(choice);
  const trials = parseTrials(flags.trials) ?? suite.trials ?? 1;
  const concurrency = parseConcurrency(flags.concurrency, choice.name);
  const log = (line: string) => warn(line);
  for (const note of approvals.notes) log(`note: ${note}`);
  // A suite file can carry agent columns, that is, programs: say so before any of them runs.
  if (variants?.some((v) => v.agent)) {
    const [{ agentProgramsNote }, { shellSandbox }] = await Promise.all([
      import('../agent-view.js'),
      import('../../engine/sandbox/shell-sandbox.js'),
    ]);
    log(
      agentProgramsNote(
        variants,
        variants === own ? `the suite file ${file}` : 'the --variants given',
        shellSandbox().kind,
      )!,
    );
  }
  const dataDir = resolveDataDir();
  const store = new SuiteStore(dataDir);
  const host = createHost({
    dataDir,
    caller: 'cli',
    getApiKey: async (_info, keyEnv) =>
      keyEnv === choice.apiKeyEnv ? apiKey : keyEnv ? process.env[keyEnv]?.trim() || null : null,
    onEvents: () => {},
    onWarning: (m) => log(`warning: ${m}`),
    pool: {},
  });
  let stop = false;
  const onSignal = () => {
    if (stop) process.exit(130);
    stop = true;
    log('\nStopping after the tasks in flight (Ctrl+C again to stop at once)…');
  };
  process.on('SIGINT', onSignal);
  let record: SuiteRecord;
  try {
    void host.warmPool(variants?.length ?? modes.length);
    log(
      `Suite ${suite.name}: ${suite.tasks.length} task${suite.tasks.length === 1 ? '' : 's'} × ${variants ? `${variants.length} columns` : modes.map((m) => MODE_LABELS[m] ?? m).join(', ')} × ${trials} trial${trials === 1 ? '' : 's'}`,
    );
    record = await runSuite({
      host,
      suite,
      modes,
      variants,
      trials,
      store,
      ...(concurrency !== undefined ? { concurrency } : {}),
      provider: {
        name: choice.name,
        baseUrl: choice.baseUrl,
        model: choice.model,
        apiKeyEnv: choice.apiKeyEnv,
        protocol: choice.protocol ?? null,
      },
      settings: { ...settings, approvals: approvals.policy },
      stopped: () => stop,
      onTaskStart: (task, i, meta) =>
        log(
          `[${i + 1}/${suite.tasks.length}] ${task.id}: comparison ${meta.id}${meta.provider.simulated ? ' (simulated)' : ''}`,
        ),
      onTaskEnd: (task, i, stored, error) => {
        if (error) log(`[${i + 1}/${suite.tasks.length}] ${task.id}: not run — ${error}`);
        else log(`[${i + 1}/${suite.tasks.length}] ${task.id}: ${stored?.meta.runs.length ?? 0} runs done`);
      },
    });
    const data = await openSuite(record, (id) => host['history:open'](id));
    for (const w of data.warnings) log(`warning: ${w}`);
    if (flags.json) sayJson(suiteJson(data));
    else write(process.stdout, suiteText(data, dataDir));
    if (record.tasks.some((t) => t.error) || record.tasks.length < suite.tasks.length) process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal);
    await host.close();
    disposeSharedSandbox();
  }
  if (stop) process.exitCode = 130;
}

async function openStored(id: string) {
  const [{ SuiteStore }, { openSuite }, { HistoryStore }, { resolveDataDir }] = await Promise.all([
    import('../../suite/suite-store.js'),
    import('../../suite/suite-data.js'),
    import('../../host/history-store.js'),
    import('../../host/data-dir.js'),
  ]);
  const dataDir = resolveDataDir();
  const record = await new SuiteStore(dataDir).resolve(id);
  const history = new HistoryStore(dataDir, (m) => warn(`parallax suite: ${m}`));
  const data = await openSuite(record, (cid) => history.open(cid));
  for (const w of data.warnings) warn(`parallax suite: note: ${w}`);
  return { data, dataDir };
}

async function suiteList(flags: { json?: boolean }): Promise<void> {
  const [{ SuiteStore }, { resolveDataDir }, { formatUtc }] = await Promise.all([
    import('../../suite/suite-store.js'),
    import('../../host/data-dir.js'),
    import('../../host/reports/report-text.js'),
  ]);
  const store = new SuiteStore(resolveDataDir());
  const all = await store.list((m) => warn(`parallax suite: skipped: ${m}`));
  if (flags.json) {
    sayJson(all);
    return;
  }
  if (all.length === 0) {
    say(`No suite runs in ${store.root} yet. Run one: parallax suite run builtin`);
    return;
  }
  for (const r of all) {
    const sim = r.provider?.simulated ? ' (simulated)' : '';
    say(
      `${r.id}  ${formatUtc(r.createdAt)}  ${r.name}  ${r.tasks.length} tasks × ${r.modes.join(',')} × ${r.trials}  ${r.provider?.model ?? '—'}${sim}`,
    );
  }
}

async function suiteShow(id: string, flags: { json?: boolean }): Promise<void> {
  const { suiteJson, suiteText } = await import('../../suite/suite-report.js');
  const { data, dataDir } = await openStored(id);
  if (flags.json) sayJson(suiteJson(data));
  else write(process.stdout, suiteText(data, dataDir));
}

async function suiteReportCommand(id: string, flags: { format: string; output?: string }): Promise<void> {
  const format = formatNamed(flags.format, SUITE_REPORT_FORMATS);
  if (!format) throw new Error(unknownFormatMessage('suite report', flags.format, SUITE_REPORT_FORMATS));
  const [{ suiteReport }, { writeFile }, { resolve }] = await Promise.all([
    import('../../suite/suite-report.js'),
    import('node:fs/promises'),
    import('node:path'),
  ]);
  const { data } = await openStored(id);
  const content = suiteReport(data, format);
  if (flags.output) {
    const path = resolve(flags.output);
    await writeFile(path, content);
    warn(`Wrote the ${format} report of suite run ${data.record.id} to ${path} (${Buffer.byteLength(content)} bytes).`);
  } else await sayDocument(content);
}
