#!/usr/bin/env node
// Runs the built CLI when it exists (installed app, after `npm run build`): its CommonJS bundle with the V8 code
// cache the build made (dist/cli/parallax.cjs, through run-cached.js), else its ES module bundle, else tsc's
// output; without a build, the TypeScript source via tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = join(root, 'dist', 'cli', 'parallax.cjs');
const bundled = join(root, 'dist', 'cli', 'parallax.js');
const built = existsSync(bundled) ? bundled : join(root, 'dist', 'electron', 'cli', 'main.js');
if (process.env.PARALLAX_FROM_SOURCE) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href);
} else if (existsSync(script)) {
  await (await import('./run-cached.js')).runCached(script);
} else if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href);
}
