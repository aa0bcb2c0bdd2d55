/**
 * `npm run bench`: runs every bench/*.bench.ts in turn. Each prints its own figures and ratios.
 * Pass a name fragment to run only matching benches: `npm run bench -- sandbox`.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
console.log(`Parallax benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
// A bench awaiting a promise that nothing will settle would otherwise end the process silently, with code 0.
let current = '';
process.on('beforeExit', () => {
  if (!current) return;
  console.error(
    `\nbench ${current} stopped before it finished: it awaits a promise nothing will settle (no timer, socket or process left).`,
  );
  process.exit(1);
});
for (const f of files) {
  current = f;
  console.log(`\n== ${f.replace('.bench.ts', '')} ==`);
  const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default?: () => Promise<void> };
  if (typeof mod.default === 'function') await mod.default();
}
current = '';
