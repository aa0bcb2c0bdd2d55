/** The `parallax` command line. Each command lives in commands/<name>.ts and registers itself here. */
import { inCliWords } from '../../shared/start-errors.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { staticHelp } from './static-help.js';
import { say, warn, write } from './terminal.js';

function version(): string {
  // electron/cli/main.ts and tsc's dist/electron/cli/main.js are three levels below package.json, the bundle's
  // dist/cli/parallax.js two.
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as { version: string })
        .version;
    } catch {
      /* try the next layout */
    }
  }
  return '0.0.0';
}

// `parallax --version` alone needs only package.json: it answers before commander and the command files load
// (as commander would: the version, exit 0); so does a plain --help, from the text the build recorded beside the
// bundle (static-help.ts). Everything else goes through commander.
const args = process.argv.slice(2);
const help = staticHelp(
  args,
  new URL('./help.json', import.meta.url),
  process.stdout.isTTY ? process.stdout.columns : undefined,
);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  say(`${version()}`);
} else if (help !== null) {
  write(process.stdout, help);
} else {
  // No top-level await: the CLI is also bundled as one CommonJS script, which bin/parallax.js compiles with a V8
  // code cache (build/bundle-worker.mjs). A failure propagates as an uncaught error, as a top-level await's did.
  commandLine().catch((err: unknown) =>
    setImmediate(() => {
      throw err;
    }),
  );
}

async function commandLine(): Promise<void> {
  // run's shell-sandbox probe (a few child processes) starts first: its wait overlaps the loading of commander, the
  // command and the engine instead of following it (run.ts awaits the same probe; a failure is reported there).
  if (args[0] === 'run' && !args.some((a) => a === '--help' || a === '-h'))
    void import('../engine/sandbox/shell-sandbox.js').then((m) => m.shellSandboxAsync()).catch(() => undefined);
  // compare's workers start now, their loading overlapping commander's and the command's (early-workers.ts).
  const early = args[0] === 'compare' ? await import('./early-workers.js') : null;
  await early?.startEarlyWorkers(args);
  try {
    await runCommand();
  } finally {
    early?.closeUntakenWorkers();
  }
}

async function runCommand(): Promise<void> {
  const [{ Command }, { commandFilesFor }] = await Promise.all([import('commander'), import('./commands/index.js')]);
  const files = await Promise.all(commandFilesFor(args).map((load) => load()));
  const program = new Command()
    .name('parallax')
    .description('Run one agent task through several agent modes at once and compare every step and token.')
    .version(version())
    .showHelpAfterError('(run with --help for usage)');

  for (const { register } of files) register(program);
  strictOptions(program);

  await program.parseAsync(process.argv).catch((err: unknown) => {
    // A start error names the composer field to fix; here the flag is named instead.
    warn(`parallax: ${inCliWords(err instanceof Error ? err.message : String(err))}`);
    process.exitCode = 1;
  });
}

/**
 * Commander checks a command's required options before its unknown ones, so `compare --taks log-stats` would
 * say --task is missing. Here every command that runs (one without subcommands) names an unknown option first,
 * with commander's own message and suggestion ("unknown option '--taks' (Did you mean --task?)").
 */
function strictOptions(cmd: import('commander').Command): void {
  for (const sub of cmd.commands) strictOptions(sub);
  if (cmd.commands.length > 0) return;
  const parse = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (argv) => {
    const parsed = parse(argv);
    const first = parsed.unknown[0];
    // Help asked for anywhere still shows the help (commander answers it after this parse).
    const help = parsed.unknown.some((a) => a === '--help' || a === '-h');
    if (first !== undefined && first.startsWith('-') && first !== '-' && !help)
      (cmd as unknown as { unknownOption(flag: string): void }).unknownOption(first);
    return parsed;
  };
}
