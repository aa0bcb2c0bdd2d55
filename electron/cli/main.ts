/** The `parallax` command line. Each command lives in commands/<name>.ts and registers itself here. */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commands } from './commands/index.js';

function version(): string {
  // dist/electron/cli/main.js and electron/cli/main.ts are both three levels below package.json.
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as { version: string }).version;
    } catch {
      /* try the next layout */
    }
  }
  return '0.0.0';
}

const program = new Command()
  .name('parallax')
  .description('Run one agent task through several agent modes at once and compare every step and token.')
  .version(version())
  .showHelpAfterError('(run with --help for usage)');

for (const register of commands) register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`parallax: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
