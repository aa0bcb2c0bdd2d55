/**
 * Every CLI command, by the name it is called with, in the order --help lists them. Add one line per command
 * file. main.ts loads only the file of the command named (`parallax report …` loads report.ts alone); help, a
 * mistyped name and anything else load them all, so commander can list them and suggest one.
 */
import type { Command } from 'commander';

export type RegisterCommand = (program: Command) => void;
type CommandFile = () => Promise<{ register: RegisterCommand }>;

export const COMMANDS: Readonly<Record<string, CommandFile>> = {
  start: () => import('./start.js'),
  run: () => import('./run.js'),
  report: () => import('./report.js'),
  tasks: () => import('./tasks.js'),
  'sim-server': () => import('./sim-server.js'),
  compare: () => import('./compare.js'),
  history: () => import('./history.js'),
  serve: () => import('./serve.js'),
  exec: () => import('./exec.js'),
  prices: () => import('./prices.js'),
  suite: () => import('./suite.js'),
  tools: () => import('./tools.js'),
  diff: () => import('./diff.js'),
};

/** The command files to load for these arguments (what follows `parallax`). */
export function commandFilesFor(args: readonly string[]): CommandFile[] {
  const first = args[0];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [COMMANDS[first]] : Object.values(COMMANDS);
}
