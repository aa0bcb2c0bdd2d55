/**
 * Answers as the app and the HTML report show them: Markdown rendering (shared/markdown.ts) of a typical
 * answer, of one at the size cap and of inline "bombs", and the word diff (shared/answer-diff.ts) of two
 * answers at its size cap, alike and unlike. The page renders on its main thread, so these bound a frame.
 */
import { diffAnswers, DIFF_MAX_CHARS } from '../shared/answer-diff.js';
import { MARKDOWN_MAX_CHARS, renderMarkdown } from '../shared/markdown.js';

function time(label: string, run: () => unknown, reps: number): void {
  run();
  const t0 = performance.now();
  for (let k = 0; k < reps; k++) run();
  console.log(`${label}: ${((performance.now() - t0) / reps).toFixed(2)} ms`);
}

const paragraph =
  'The **log** has `3` ERROR lines; see [the report](https://example.com/r) and the table:\n\n| file | errors |\n|---|---:|\n| a.log | 2 |\n| b.log | 1 |\n\n- first\n- second\n\n';

export default async function main(): Promise<void> {
  const typical = paragraph.repeat(8);
  time(`render a typical answer (${typical.length.toLocaleString('en-US')} chars)`, () => renderMarkdown(typical), 200);
  const capped = paragraph.repeat(Math.floor(MARKDOWN_MAX_CHARS / paragraph.length));
  time(
    `render an answer at the cap (${capped.length.toLocaleString('en-US')} chars)`,
    () => renderMarkdown(capped),
    10,
  );
  for (const [name, bomb] of [
    ['[ × 50,000', '['.repeat(50_000)],
    ['*a × 50,000', '*a'.repeat(50_000)],
    ['> × 5,000 (shown raw)', '>'.repeat(5000) + ' x'],
  ] as const) {
    time(`render bomb ${name}`, () => renderMarkdown(bomb), 5);
  }
  const words = Array.from({ length: 20_000 }, (_, i) => `w${(i * 7919) % 5003}`).join(' ');
  const a = words.slice(0, DIFF_MAX_CHARS / 2 - 10);
  const b = a.replace(/w1(\d)/g, 'x1$1');
  time(
    `diff two alike answers at the cap (${(a.length + b.length).toLocaleString('en-US')} chars)`,
    () => diffAnswers(a, b),
    5,
  );
  const c = Array.from({ length: 20_000 }, (_, i) => `z${(i * 104729) % 7001}`)
    .join(' ')
    .slice(0, DIFF_MAX_CHARS / 2 - 10);
  const r = diffAnswers(a, c);
  time(
    `diff two unlike answers at the cap (${r.ok ? 'diffed' : 'given up: ' + r.reason.slice(0, 40)})`,
    () => diffAnswers(a, c),
    3,
  );
}
