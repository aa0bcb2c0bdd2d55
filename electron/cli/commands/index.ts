/** Every CLI command. Add one import and one entry per command file. */
import type { Command } from 'commander';
import { register as report } from './report.js';
import { register as run } from './run.js';
import { register as start } from './start.js';
import { register as tasks } from './tasks.js';
import { register as simServer } from './sim-server.js';
import { register as compare } from './compare.js';
import { register as history } from './history.js';
import { register as serve } from './serve.js';
import { register as exec } from './exec.js';
import { register as prices } from './prices.js';
import { register as suite } from './suite.js';
import { register as tools } from './tools.js';
import { register as diff } from './diff.js';

export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [start, run, report, tasks, simServer, compare, history, serve, exec, prices, suite, tools, diff];
