import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { listNames, notFoundMessage, resolveInWorkspace } from './workspace.js';

export const listDir = defineTool({
  name: 'list_dir',
  description:
    'List the entries of a folder in the workspace. Returns an array of names sorted alphabetically; folder ' +
    'names end with "/". Not recursive: list a subfolder by passing its path.',
  args: z.object({
    path: z.string().default('.').describe('Folder path relative to the workspace; "." is the workspace root.'),
  }),
  returns: 'string[]',
  async run({ path }, ctx): Promise<string[]> {
    const real = await resolveInWorkspace(ctx.workspace, path, 'list');
    const stat = await fs.stat(real).catch(() => null);
    if (!stat) throw new ToolError(await notFoundMessage(ctx.workspace, path, 'folder'));
    if (!stat.isDirectory()) {
      throw new ToolError(`${JSON.stringify(path)} is a file, not a folder. Use read_file to read it.`);
    }
    return listNames(real);
  },
});
