/** Reading a running comparison's history from outside its process, as the fan-in writes it. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How many run logs under `dataDir` hold a complete event line of `type` (a line still being written is not read). */
export function runLogsWith(dataDir: string, type: string): number {
  let n = 0;
  const root = join(dataDir, 'comparisons');
  for (const id of existsSync(root) ? readdirSync(root) : []) {
    const runs = join(root, id, 'runs');
    for (const log of existsSync(runs) ? readdirSync(runs) : []) {
      const lines = readFileSync(join(runs, log), 'utf8').split('\n').slice(0, -1);
      if (lines.some((l) => l.includes(`"type":"${type}"`))) n++;
    }
  }
  return n;
}
