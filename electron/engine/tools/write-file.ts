import { z } from 'zod';
import { formatBytes, limitsOf } from './limits.js';
import { runToolState, writeBudgetLeft } from './run-state.js';
import { openForWrite } from './safe-file.js';
import { defineTool, ToolError } from './tool.js';
import { walkInWorkspace } from './workspace.js';

export const writeFile = defineTool({
  name: 'write_file',
  description:
    'Write text to a file in the workspace, replacing it if it exists and creating missing parent folders. ' +
    'Returns a confirmation with the number of bytes written.',
  args: z.object({
    path: z.string().describe('File path relative to the workspace, e.g. "out/report.md".'),
    content: z.string().describe('The full text to write (UTF-8).'),
  }),
  returns: 'string',
  async run({ path: userPath, content }, ctx): Promise<string> {
    const bytes = Buffer.from(content, 'utf8');
    const left = writeBudgetLeft(ctx);
    if (bytes.length > left) {
      throw new ToolError(
        `Writing ${formatBytes(bytes.length)} to ${JSON.stringify(userPath)} would pass this run's workspace write budget ` +
          `(${formatBytes(limitsOf(ctx).workspaceWriteBytes)} in all, ${formatBytes(left)} left). Nothing was written. Write less, e.g. a summary instead of raw data.`,
      );
    }
    const walked = await walkInWorkspace(ctx.workspace, userPath, 'write');
    try {
      const handle = await openForWrite(walked, userPath);
      try {
        // Truncated only now, after the open file was checked to be the one inside the workspace.
        await handle.truncate(0);
        runToolState(ctx).written += bytes.length;
        await handle.writeFile(bytes, { signal: ctx.signal });
      } finally {
        await handle.close();
      }
    } finally {
      await walked.dir.close();
    }
    return `Wrote ${bytes.length} bytes to ${userPath}`;
  },
});
