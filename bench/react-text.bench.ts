/**
 * The text ReAct parser on the replies it reads every step and on the ones a model should never send: a usual
 * reply, one with several actions, a 1 MB reply, and 64 KB of a label repeated (the kind of input that makes
 * backtracking patterns blow up). Figures: microseconds per parse, and MB/s on the large ones.
 */
import { parseReply } from '../electron/engine/modes/text/parse-reply.js';

function time(label: string, text: string, reps: number): void {
  parseReply(text);
  const t0 = performance.now();
  for (let k = 0; k < reps; k++) parseReply(text);
  const ms = (performance.now() - t0) / reps;
  const rate = text.length > 100_000 ? ` · ${(text.length / 1e6 / (ms / 1000)).toFixed(0)} MB/s` : '';
  console.log(`${label} (${text.length.toLocaleString('en-US')} chars): ${(ms * 1000).toFixed(1)} µs per parse${rate}`);
}

export default async function main(): Promise<void> {
  const usual = 'Thought: I need the content of logs/a.txt.\nAction: read_file\nAction Input: {"path": "logs/a.txt"}\n';
  time('usual reply', usual, 20_000);
  time(
    'five actions, fenced inputs',
    Array.from(
      { length: 5 },
      (_, i) => `Thought: file ${i}\nAction: read_file\nAction Input:\n\`\`\`json\n{"path": "${i}.txt"}\n\`\`\``,
    ).join('\n\n'),
    5_000,
  );
  time(
    '1 MB thought and input',
    `Thought: ${'x'.repeat(500_000)}\nAction: write_file\nAction Input: {"path": "a", "content": "${'y'.repeat(500_000)}"}`,
    20,
  );
  time('64 KB of "Action:" lines', 'Action: read_file\n'.repeat(3_500), 50);
  time('64 KB of spaces and colons on one line', `Action${' '.repeat(32_000)}:${':'.repeat(32_000)}`, 50);
}
