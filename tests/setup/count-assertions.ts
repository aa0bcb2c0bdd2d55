/**
 * With PARALLAX_COUNT_ASSERTIONS=<file>, every test appends one line to that file: its file, its name and how many
 * assertions it ran. `node build/count-assertions.mjs <file>` sums them, so a change to the suite can say how many
 * tests and assertions it had before and after (the count of what ran, not of `expect(` in the source).
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterEach, expect } from 'vitest';

const out = process.env.PARALLAX_COUNT_ASSERTIONS;
if (out) {
  afterEach((context) => {
    const file = relative(process.cwd(), context.task.file.filepath);
    const line = [file, context.task.name.replace(/\s+/g, ' '), expect.getState().assertionCalls].join('\t');
    appendFileSync(out, `${line}\n`);
  });
}
