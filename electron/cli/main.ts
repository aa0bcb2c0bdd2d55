/** The `parallax` command line. Each command lives in commands/<name>.ts and registers itself here. */
import { inCliWords } from '../../shared/start-errors.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { say, warn } from './terminal.js';

function version(): string {
  // electron/cli/main.ts and tsc's dist/electron/cli/main.js are three levels below package.json, the bundle's
  // dist/cli/parallax.js two.
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as { version: string }).version;
    } catch {
      /* try the next layout */
    }
  }
  return '0.0.0';
}

// `parallax --version` alone needs only package.json: it answers before commander and the command files load
// (as commander would: the version, exit 0). Everything else, --help included, goes through commander.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  say(`${version()}`);
} else {
  await runCommand();
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

  await program.parseAsync(process.argv).catch((err: unknown) => {
    // A start error names the composer field to fix; here the flag is named instead.
    warn(`parallax: ${inCliWords(err instanceof Error ? err.message : String(err))}`);
    process.exitCode = 1;
  });
}
