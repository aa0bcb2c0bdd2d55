/**
 * One contestant of the loop bench (bench/peer-loop.bench.ts), in a process of its own:
 *   node [--import tsx] bench/peers/loop-child.mjs <contestant> <steps> <runs>
 * It starts the scripted instant server below in this process, runs one warm-up run and then <runs> runs of
 * exactly <steps> steps (the model asks for list_dir steps − 1 times, then answers), and prints one JSON line:
 * each run's wall time, the time spent inside the server (parse → last byte written) and inside the tool.
 * Every contestant drives the same server with one tool that lists the workspace; Parallax runs its own loop
 * (ReAct, its own list_dir and its full default toolset, streaming, events recorded).
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [contestant, stepsArg, runsArg] = process.argv.slice(2);
const STEPS = Number(stepsArg);
const RUNS = Number(runsArg);
const KEY = 'bench-key';

function completion(step, streamed) {
  const call = step < STEPS;
  const toolCall = { id: `c${step}`, type: 'function', function: { name: 'list_dir', arguments: '{"path":"."}' } };
  const usage = { prompt_tokens: 100 * step, completion_tokens: 10, total_tokens: 100 * step + 10 };
  const base = { id: `b${step}`, created: 0, model: 'bench' };
  if (!streamed) {
    const message = call
      ? { role: 'assistant', content: null, tool_calls: [toolCall] }
      : { role: 'assistant', content: 'Done.' };
    return JSON.stringify({
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
      usage,
    });
  }
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const parts = call
    ? [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: 'list_dir', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }),
        chunk({}, 'tool_calls'),
      ]
    : [chunk({ role: 'assistant', content: 'Done.' }, 'stop')];
  parts.push(
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`,
    'data: [DONE]\n\n',
  );
  return parts.join('');
}

async function startServer() {
  let serverMs = 0;
  const server = createServer((req, res) => {
    const t0 = performance.now();
    const body = [];
    req.on('data', (c) => body.push(c));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8'));
      const step = request.messages.filter((m) => m.role === 'assistant').length + 1;
      const streamed = request.stream === true;
      res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      res.end(completion(step, streamed), () => (serverMs += performance.now() - t0));
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    take: () => {
      const v = serverMs;
      serverMs = 0;
      return v;
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * The peers' tool: the workspace's names, one a line; its time is added to `tool.ms`. Synchronous, so that a
 * loaded machine's file-system thread pool adds nothing to it: the bench weighs the loops, not the tools.
 */
function lister(workspace) {
  const tool = {
    ms: 0,
    async list(path = '.') {
      const t0 = performance.now();
      try {
        return readdirSync(resolve(workspace, path)).sort().join('\n');
      } finally {
        tool.ms += performance.now() - t0;
      }
    },
  };
  return tool;
}

const DESCRIPTION = 'List the names in a folder of the workspace.';
const TASK = 'List the workspace until told to stop.';

/** Each contestant: set up once, then `run()` does one whole run and returns its tool time (ms). */
const CONTESTANTS = {
  async parallax(url, workspace) {
    const { randomUUID } = await import('node:crypto');
    const { parseSettings } = await import('../../shared/run-spec.ts');
    const { runEngine } = await import('../../electron/engine/run-engine.ts');
    // The tool's own time, timed as the peers' tool is (around its body): a step's tool-finished event holds it in
    // whole milliseconds, too coarse for a tool of about one.
    const { listDir } = await import('../../electron/engine/tools/list-dir.ts');
    const body = listDir.run;
    let toolMs = 0;
    listDir.run = async (...args) => {
      const t0 = performance.now();
      try {
        return await body.apply(listDir, args);
      } finally {
        toolMs += performance.now() - t0;
      }
    };
    return async () => {
      const events = [];
      toolMs = 0;
      await runEngine(
        {
          runId: randomUUID(),
          task: { id: null, text: TASK },
          mode: 'react',
          provider: { name: 'bench', baseUrl: url, model: 'bench', simulated: false },
          apiKeyEnv: null,
          settings: parseSettings({ maxSteps: STEPS }),
          workspace,
        },
        { apiKey: KEY, signal: new AbortController().signal, emit: (e) => events.push(e) },
      );
      const last = events.at(-1);
      if (last?.type !== 'run-finished' || last.totals.steps !== STEPS)
        throw new Error(`parallax: not ${STEPS} steps (${last?.type} ${last?.status} ${last?.error ?? ''})`);
      if (events.filter((e) => e.type === 'tool-finished').length !== STEPS - 1)
        throw new Error('parallax: not one list_dir call per step but the last');
      return toolMs;
    };
  },
  'ai-sdk-generateText': (url, workspace) => aiSdk(url, workspace, 'generate'),
  'ai-sdk-streamText': (url, workspace) => aiSdk(url, workspace, 'stream'),
  async 'openai-agents'(url, workspace) {
    const { Agent, run, tool, setTracingDisabled, OpenAIChatCompletionsModel } = await import('@openai/agents');
    const { default: OpenAI } = await import('openai');
    const { z } = await import('zod');
    setTracingDisabled(true);
    const t = lister(workspace);
    const agent = new Agent({
      name: 'bench',
      instructions: 'You are a bench agent.',
      model: new OpenAIChatCompletionsModel(new OpenAI({ baseURL: url, apiKey: KEY }), 'bench'),
      tools: [
        tool({
          name: 'list_dir',
          description: DESCRIPTION,
          parameters: z.object({ path: z.string() }),
          execute: ({ path }) => t.list(path),
        }),
      ],
    });
    return async () => {
      t.ms = 0;
      const result = await run(agent, TASK, { maxTurns: STEPS + 1 });
      if (result.finalOutput !== 'Done.') throw new Error('openai-agents: no answer');
      return t.ms;
    };
  },
  async langgraph(url, workspace) {
    const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
    const { ChatOpenAI } = await import('@langchain/openai');
    const { tool } = await import('@langchain/core/tools');
    const { z } = await import('zod');
    const t = lister(workspace);
    const agent = createReactAgent({
      llm: new ChatOpenAI({ model: 'bench', apiKey: KEY, configuration: { baseURL: url }, maxRetries: 0 }),
      tools: [
        tool(({ path }) => t.list(path), {
          name: 'list_dir',
          description: DESCRIPTION,
          schema: z.object({ path: z.string() }),
        }),
      ],
    });
    return async () => {
      t.ms = 0;
      const out = await agent.invoke(
        { messages: [{ role: 'user', content: TASK }] },
        { recursionLimit: 2 * STEPS + 5 },
      );
      if (out.messages.at(-1)?.content !== 'Done.') throw new Error('langgraph: no answer');
      return t.ms;
    };
  },
};

async function aiSdk(url, workspace, how) {
  const { generateText, streamText, tool, stepCountIs } = await import('ai');
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const { z } = await import('zod');
  const model = createOpenAICompatible({ name: 'bench', baseURL: url, apiKey: KEY, includeUsage: true }).chatModel(
    'bench',
  );
  const t = lister(workspace);
  const tools = {
    list_dir: tool({
      description: DESCRIPTION,
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => t.list(path),
    }),
  };
  return async () => {
    t.ms = 0;
    const options = { model, tools, prompt: TASK, stopWhen: stepCountIs(STEPS), maxRetries: 0 };
    const text = how === 'generate' ? (await generateText(options)).text : await streamText(options).text;
    if (text !== 'Done.') throw new Error(`ai-sdk ${how}: no answer (${text})`);
    return t.ms;
  };
}

const server = await startServer();
const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-peers-'));
await writeFile(join(workspace, 'a.txt'), 'hello\n');
try {
  const make = CONTESTANTS[contestant];
  if (!make) throw new Error(`unknown contestant ${contestant}; one of ${Object.keys(CONTESTANTS).join(', ')}`);
  const runOnce = await make(server.url, workspace);
  const out = { wall: [], server: [], tool: [] };
  for (let i = 0; i <= RUNS; i++) {
    server.take();
    const t0 = performance.now();
    const toolMs = await runOnce();
    const wall = performance.now() - t0;
    const inServer = server.take();
    if (i === 0) continue; // warm-up: module loading and JIT
    out.wall.push(wall);
    out.server.push(inServer);
    out.tool.push(toolMs);
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  await server.close();
  await rm(workspace, { recursive: true, force: true });
}
