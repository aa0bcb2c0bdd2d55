import { z } from 'zod';
import { DEFAULT_TOOL_LIMITS, formatBytes, limitsOf } from './limits.js';
import { openForRead, readUpTo } from './safe-file.js';
import { defineTool, ToolError } from './tool.js';
import { notFoundMessage, walkInWorkspace } from './workspace.js';

/** Bytes inspected for NUL characters, the usual sign of a binary file. */
const SNIFF_BYTES = 8192;

export const readFile = defineTool({
  name: 'read_file',
  description:
    'Read a UTF-8 text file in the workspace and return its whole content as a string. Refuses folders, ' +
    `binary files and files over ${formatBytes(DEFAULT_TOOL_LIMITS.readFileMaxBytes)} (use run_shell with head, tail or grep to read part of a large file).`,
  args: z.object({
    path: z.string().describe('File path relative to the workspace, e.g. "logs/app.txt".'),
  }),
  returns: 'string',
  async run({ path }, ctx): Promise<string> {
    const walked = await walkInWorkspace(ctx.workspace, path, 'read');
    try {
      if (!walked.stat) throw new ToolError(await notFoundMessage(ctx.workspace, path, 'file'));
      if (walked.stat.isDirectory())
        throw new ToolError(`${JSON.stringify(path)} is a folder. Use list_dir to see its entries.`);
      const max = limitsOf(ctx).readFileMaxBytes;
      const { handle, stat } = await openForRead(walked, path);
      let bytes: Buffer;
      try {
        if (stat.size > max) throw tooBig(path, stat.size, max);
        bytes = await readUpTo(handle, max, ctx.signal);
      } finally {
        await handle.close();
      }
      if (bytes.length > max) throw tooBig(path, null, max);
      if (bytes.subarray(0, SNIFF_BYTES).includes(0)) throw binaryError(path);
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw binaryError(path);
      }
    } finally {
      await walked.dir.close();
    }
  },
});

/** `size` null: the file grew past the limit while it was read. */
function tooBig(path: string, size: number | null, max: number): ToolError {
  const what = size === null ? 'grew over' : `is ${formatBytes(size)}, over`;
  return new ToolError(
    `${JSON.stringify(path)} ${what} read_file's ${formatBytes(max)} limit. ` +
      'Use run_shell (e.g. head -n 100, grep, wc -l) to read or summarize part of it.',
  );
}

function binaryError(path: string): ToolError {
  return new ToolError(
    `${JSON.stringify(path)} is not a UTF-8 text file (it looks binary), so read_file cannot return it. ` +
      'Use run_shell (e.g. file, xxd | head) to inspect it.',
  );
}
