import { z } from 'zod';
import { kindOf } from './safe-file.js';
import { defineTool, ToolError } from './tool.js';
import { listNames, notFoundMessage, walkInWorkspace } from './workspace.js';

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
    const walked = await walkInWorkspace(ctx.workspace, path, 'list');
    try {
      if (!walked.stat) throw new ToolError(await notFoundMessage(ctx.workspace, path, 'folder'));
      if (!walked.stat.isDirectory()) {
        const hint = walked.stat.isFile() ? ' Use read_file to read it.' : '';
        throw new ToolError(`${JSON.stringify(path)} is a ${kindOf(walked.stat)}, not a folder.${hint}`);
      }
      if (walked.name === '') return await listNames(walked.dir.at('.'), walked.real, []);
      // Opened without following a link, then listed through that open folder.
      const folder = await walked.dir.openChild(walked.name);
      try {
        return await listNames(folder.at('.'), walked.dir.root, folder.rel);
      } finally {
        await folder.close();
      }
    } finally {
      await walked.dir.close();
    }
  },
});
