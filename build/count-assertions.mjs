/**
 * Sums the lines tests/setup/count-assertions.ts wrote: tests and assertions per folder and in all.
 * `node build/count-assertions.mjs counts.tsv [--files]` (--files: one line per test file too).
 */
import { readFileSync } from 'node:fs';

const [file, flag] = process.argv.slice(2);
if (!file) {
  console.error(
    'Usage: node build/count-assertions.mjs <counts.tsv> [--files]  (write it with PARALLAX_COUNT_ASSERTIONS=<counts.tsv> npx vitest run)',
  );
  process.exit(2);
}
const groups = new Map();
const add = (key, n) => {
  const g = groups.get(key) ?? { tests: 0, assertions: 0 };
  g.tests += 1;
  g.assertions += n;
  groups.set(key, g);
};
for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
  const [path, , count] = line.split('\t');
  const n = Number(count);
  add('all', n);
  add(path.split('/').slice(0, 2).join('/'), n);
  if (flag === '--files') add(path, n);
}
const rows = [...groups].sort(([a], [b]) => (a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b)));
for (const [key, g] of rows)
  console.log(`${key.padEnd(70)} ${String(g.tests).padStart(6)} tests ${String(g.assertions).padStart(8)} assertions`);
