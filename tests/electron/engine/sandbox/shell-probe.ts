/**
 * A process that runs one run_shell command the way a worker does and prints the result as JSON. The tests
 * start it with secrets in its environment, as the host's would be, to see whether the command can read them.
 *   shell-probe.ts <workspace> <command>
 */
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';

const [workspace, command] = process.argv.slice(2);
const result = await invokeTool(
  findTool('run_shell')!,
  { command },
  { workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal },
);
process.stdout.write(JSON.stringify(result));
