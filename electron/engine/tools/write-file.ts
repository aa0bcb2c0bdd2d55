import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { resolveInWorkspace } from './workspace.js';

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
    const real = await resolveInWorkspace(ctx.workspace, userPath, 'write');
    const existing = await fs.stat(real).catch(() => null);
    if (existing?.isDirectory()) {
      throw new ToolError(`${JSON.stringify(userPath)} is a folder. Give a file path inside it, e.g. "${userPath.replace(/\/+$/, '')}/file.txt".`);
    }
    try {
      await fs.mkdir(path.dirname(real), { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') {
        throw new ToolError(`Cannot create the folders for ${JSON.stringify(userPath)}: part of that path is an existing file.`);
      }
      throw error;
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    await fs.writeFile(real, content, { encoding: 'utf8', signal: ctx.signal });
    return `Wrote ${bytes} bytes to ${userPath}`;
  },
});
