/**
 * `parallax --help` and `parallax <command> --help` answered from the text the build recorded (help.json beside
 * the bundle, written by build/bundle-worker.mjs from this same build's commander output), without loading
 * commander or any command file. Only at commander's default width of 80 columns (output not a terminal, or an
 * 80-column one): any other width, another form of asking for help, or a missing file goes through commander.
 */
import { readFileSync } from 'node:fs';

/** The key of the recorded help for these arguments ('' for the program's own), or null when it is not a plain help. */
export function helpKey(args: readonly string[]): string | null {
  const isHelp = (a: string | undefined) => a === '--help' || a === '-h';
  if (args.length === 1 && isHelp(args[0])) return '';
  if (args.length === 2 && isHelp(args[1]) && /^[a-z][a-z-]*$/.test(args[0]!)) return args[0]!;
  return null;
}

/** The recorded help text for these arguments, or null to ask commander. */
export function staticHelp(args: readonly string[], file: URL, columns: number | undefined): string | null {
  const key = helpKey(args);
  // Commander wraps at the terminal's width and at 80 columns when the output is not a terminal.
  if (key === null || (columns ?? 80) !== 80) return null;
  try {
    const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const text = Object.hasOwn(texts, key) ? texts[key] : undefined;
    return typeof text === 'string' ? text : null;
  } catch {
    return null; // no recorded help (tsc's output, a partial build): commander answers
  }
}
