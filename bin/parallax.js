#!/usr/bin/env node
// Runs the built CLI when it exists (installed app, after `npm run build`): its bundle (dist/cli, a few files to
// load instead of a few hundred modules), else tsc's output; without a build, the TypeScript source via tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundled = join(root, 'dist', 'cli', 'parallax.js');
const built = existsSync(bundled) ? bundled : join(root, 'dist', 'electron', 'cli', 'main.js');
if (existsSync(built) && !process.env.PARALLAX_FROM_SOURCE) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href);
}
