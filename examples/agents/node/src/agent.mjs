// A ReAct agent on the openai SDK: three tools, native function calling, at most 10 steps.
// Parallax starts it in the run's copy of the task's files with OPENAI_BASE_URL and OPENAI_API_KEY pointing at
// its recording proxy, PARALLAX_MODEL and PARALLAX_TASK. The answer goes to standard output, the steps to stderr.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import OpenAI from 'openai';

const client = new OpenAI(); // reads OPENAI_BASE_URL and OPENAI_API_KEY
const fn = (name, description, properties, required = []) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
});
const tools = [
  fn('list_dir', 'List the names of the files in a directory.', { path: { type: 'string' } }),
  fn('read_file', 'Read a text file and return its content as a string.', { path: { type: 'string' } }, ['path']),
  fn('run_shell', 'Run a shell command and return its output.', { command: { type: 'string' } }, ['command']),
];
const run = {
  list_dir: ({ path = '.' }) => JSON.stringify(readdirSync(path).sort()),
  read_file: ({ path }) => readFileSync(path, 'utf8'),
  run_shell: ({ command }) => {
    const done = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', timeout: 15_000 });
    return JSON.stringify({ exit_code: done.status, stdout: done.stdout, stderr: done.stderr });
  },
};

const messages = [
  {
    role: 'system',
    content:
      'You are a helpful agent working in the current folder. Use the tools to act; when you have the answer, reply without calling a tool.',
  },
  { role: 'user', content: process.env.PARALLAX_TASK ?? process.argv.slice(2).join(' ') },
];
for (let step = 1; step <= 10; step++) {
  const res = await client.chat.completions.create({ model: process.env.PARALLAX_MODEL ?? 'sim', messages, tools });
  const message = res.choices[0].message;
  messages.push(message);
  console.error(`step ${step}: prompt ${res.usage?.prompt_tokens}, completion ${res.usage?.completion_tokens}`);
  if (!message.tool_calls?.length) {
    console.log((message.content ?? '').trim());
    process.exit(0);
  }
  for (const call of message.tool_calls) {
    let content;
    try {
      const tool = run[call.function.name];
      content = tool
        ? tool(JSON.parse(call.function.arguments || '{}'))
        : `Error: tool ${call.function.name} does not exist; available: ${Object.keys(run).join(', ')}`;
    } catch (err) {
      content = `Error: ${err.message}`; // the model reads it and tries another way
    }
    messages.push({ role: 'tool', tool_call_id: call.id, content: content.slice(0, 4000) });
  }
}
console.error('stopped: no answer after 10 steps');
process.exit(1);
