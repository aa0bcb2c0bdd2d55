#!/usr/bin/env node
// Runs the built CLI when it exists (installed app, after `npm run build`): its CommonJS bundle with the V8 code
// cache the build made (dist/cli/parallax.cjs, through run-cached.js), else its ES module bundle, else tsc's
// output; without a build, the TypeScript source via tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Help and the version are answered from files beside the ES module bundle (help.json, package.json), which loads
// only that: the script would first read and deserialize the whole CLI.
const helpOrVersion = (args) =>
  args.includes('--help') || args.includes('-h') || (args.length === 1 && ['--version', '-V'].includes(args[0]));
const script = join(root, 'dist', 'cli', 'parallax.cjs');
const bundled = join(root, 'dist', 'cli', 'parallax.js');
const built = existsSync(bundled) ? bundled : join(root, 'dist', 'electron', 'cli', 'main.js');
if (process.env.PARALLAX_FROM_SOURCE) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href);
} else if (existsSync(script) && !helpOrVersion(process.argv.slice(2))) {
  await (await import('./run-cached.js')).runCached(script);
} else if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href);
}
