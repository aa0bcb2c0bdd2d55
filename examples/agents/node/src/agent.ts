// The same ReAct agent in TypeScript, run with `npx tsx src/agent.ts` (tsx from this project's node_modules).
// Parallax sets OPENAI_BASE_URL, OPENAI_API_KEY (its recording proxy), PARALLAX_MODEL and PARALLAX_TASK.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

type Args = Record<string, string | undefined>;
const client = new OpenAI(); // reads OPENAI_BASE_URL and OPENAI_API_KEY
const fn = (
  name: string,
  description: string,
  properties: Record<string, { type: 'string' }>,
  required: string[] = [],
): ChatCompletionTool => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
});
const tools: ChatCompletionTool[] = [
  fn('list_dir', 'List the names of the files in a directory.', { path: { type: 'string' } }),
  fn('read_file', 'Read a text file and return its content as a string.', { path: { type: 'string' } }, ['path']),
  fn('run_shell', 'Run a shell command and return its output.', { command: { type: 'string' } }, ['command']),
];
const run: Record<string, (args: Args) => string> = {
  list_dir: ({ path = '.' }) => JSON.stringify(readdirSync(path).sort()),
  read_file: ({ path }) => readFileSync(path!, 'utf8'),
  run_shell: ({ command }) => {
    const done = spawnSync('/bin/sh', ['-c', command!], { encoding: 'utf8', timeout: 15_000 });
    return JSON.stringify({ exit_code: done.status, stdout: done.stdout, stderr: done.stderr });
  },
};

const messages: ChatCompletionMessageParam[] = [
  {
    role: 'system',
    content:
      'You are a helpful agent working in the current folder. Use the tools to act; when you have the answer, reply without calling a tool.',
  },
  { role: 'user', content: process.env.PARALLAX_TASK ?? process.argv.slice(2).join(' ') },
];
for (let step = 1; step <= 10; step++) {
  const res = await client.chat.completions.create({ model: process.env.PARALLAX_MODEL ?? 'sim', messages, tools });
  const message = res.choices[0]!.message;
  messages.push(message);
  console.error(`step ${step}: prompt ${res.usage?.prompt_tokens}, completion ${res.usage?.completion_tokens}`);
  if (!message.tool_calls?.length) {
    console.log((message.content ?? '').trim());
    process.exit(0);
  }
  for (const call of message.tool_calls) {
    if (call.type !== 'function') continue;
    let content: string;
    try {
      const tool = run[call.function.name];
      content = tool
        ? tool(JSON.parse(call.function.arguments || '{}') as Args)
        : `Error: tool ${call.function.name} does not exist; available: ${Object.keys(run).join(', ')}`;
    } catch (err) {
      content = `Error: ${(err as Error).message}`; // the model reads it and tries another way
    }
    messages.push({ role: 'tool', tool_call_id: call.id, content: content.slice(0, 4000) });
  }
}
console.error('stopped: no answer after 10 steps');
process.exit(1);
