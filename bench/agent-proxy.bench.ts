/**
 * What an agent column's recording proxy costs per step: the same chat request (the tutorial ReAct's first,
 * its six tools) sent by a client straight to the simulated model, and through the run's proxy (token check,
 * the request read into the loop's form, the events recorded, the reply streamed from the model and written
 * back). Alternated, so the machine's load weighs on both alike; wall time per request, medians.
 */
import { randomUUID } from 'node:crypto';
import { startSimServer } from '../electron/sim/index.js';
import { startAgentProxy } from '../electron/engine/agent/agent-proxy.js';
import { AgentSteps } from '../electron/engine/agent/agent-steps.js';
import { EventRecorder } from '../electron/engine/event-recorder.js';
import { createChatClient, streamChat, type ChatMessage } from '../electron/engine/provider/chat-client.js';
import { resolveTask } from '../electron/tasks/resolve.js';
import { parseSettings, type RunSpec } from '../shared/run-spec.js';

const ROUNDS = 80;
const tool = (name: string, description: string, params: string[]) => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])),
      required: params,
    },
  },
});

export default async function main(): Promise<void> {
  const sim = await startSimServer();
  const task = resolveTask('log-stats', { fixtureUrl: null });
  const body = JSON.stringify({
    model: 'sim',
    stream: false,
    messages: [
      { role: 'system', content: 'You are a helpful agent working in the current folder. Use the tools to act.' },
      { role: 'user', content: task.text },
    ],
    tools: [
      tool('list_dir', 'List the names in a directory.', []),
      tool('read_file', 'Read a text file.', ['path']),
      tool('write_file', 'Write a file.', ['path', 'content']),
      tool('run_shell', 'Run a shell command.', ['command']),
      tool('fetch_url', 'Download a page.', ['url']),
      tool('current_time', 'The time in a zone.', ['timezone']),
    ],
  });
  const spec: RunSpec = {
    runId: randomUUID(),
    task,
    mode: 'agent',
    provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
    apiKeyEnv: null,
    settings: parseSettings({ maxSteps: 100 }),
    workspace: '/tmp',
    agent: { command: ['true'] },
  };
  const client = createChatClient(spec.provider, null, {
    timeoutMs: 60_000,
    idleTimeoutMs: 60_000,
    deadlineMs: 60_000,
    streamOptions: true,
  });
  let events = 0;
  const recorder = new EventRecorder(spec.runId, () => events++);
  const steps = new AgentSteps(
    spec,
    client,
    recorder,
    new AbortController().signal,
    { kind: 'none', reason: 'bench' },
    () => undefined,
  );
  const token = 'px-bench-token';
  const proxy = await startAgentProxy(token, { chat: (r) => steps.chat(r), other: () => undefined }, { port: 0 });
  const send = async (url: string) => {
    const t0 = performance.now();
    const res = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    const json = (await res.json()) as { usage?: { prompt_tokens: number } };
    if (!res.ok || !json.usage) throw new Error(`request failed: ${res.status}`);
    return { ms: performance.now() - t0, prompt: json.usage.prompt_tokens };
  };
  // As the built-in loop sends it: streamed, through the run's own client.
  const parsed = JSON.parse(body) as {
    messages: ChatMessage[];
    tools: { function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  };
  const loopClient = createChatClient(spec.provider, null, {
    timeoutMs: 60_000,
    idleTimeoutMs: 60_000,
    deadlineMs: 60_000,
    streamOptions: true,
  });
  const viaLoop = async () => {
    const t0 = performance.now();
    const reply = await streamChat(
      loopClient,
      { model: 'sim', messages: parsed.messages, temperature: null, tools: parsed.tools.map((t) => t.function) },
      new AbortController().signal,
    );
    return { ms: performance.now() - t0, prompt: reply.usage.prompt };
  };
  const direct: number[] = [],
    proxied: number[] = [],
    loop: number[] = [];
  let cpuLoop = 0;
  let cpuDirect = 0,
    cpuProxied = 0;
  try {
    for (let i = 0; i < 10; i++) await Promise.all([send(sim.url), send(`http://127.0.0.1:${proxy.port}/v1`)]); // warm-up
    for (let i = 0; i < ROUNDS; i++) {
      let c = process.cpuUsage();
      const a = await send(sim.url);
      let d = process.cpuUsage(c);
      cpuDirect += d.user + d.system;
      c = process.cpuUsage();
      const b = await send(`http://127.0.0.1:${proxy.port}/v1`);
      d = process.cpuUsage(c);
      cpuProxied += d.user + d.system;
      if (a.prompt !== b.prompt) throw new Error(`the proxy changed the usage: ${a.prompt} vs ${b.prompt}`);
      c = process.cpuUsage();
      const l = await viaLoop();
      d = process.cpuUsage(c);
      cpuLoop += d.user + d.system;
      loop.push(l.ms);
      direct.push(a.ms);
      proxied.push(b.ms);
    }
  } finally {
    await proxy.close();
    await sim.close();
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`${ROUNDS} requests each, alternated (simulated model in this process, so CPU includes it)`);
  console.log(
    `direct to the simulated model: median ${median(direct).toFixed(2)} ms per request, CPU ${(cpuDirect / ROUNDS / 1000).toFixed(2)} ms`,
  );
  console.log(
    `direct, streamed, as the loop sends: median ${median(loop).toFixed(2)} ms per request, CPU ${(cpuLoop / ROUNDS / 1000).toFixed(2)} ms`,
  );
  console.log(
    `through the recording proxy:   median ${median(proxied).toFixed(2)} ms per request, CPU ${(cpuProxied / ROUNDS / 1000).toFixed(2)} ms`,
  );
  console.log(
    `proxy cost per step against the loop's own request: +${(median(proxied) - median(loop)).toFixed(2)} ms wall (×${(median(proxied) / median(loop)).toFixed(2)}), +${((cpuProxied - cpuLoop) / ROUNDS / 1000).toFixed(2)} ms CPU; ${events} events recorded`,
  );
  console.log(
    `against a plain non-streamed request: +${(median(proxied) - median(direct)).toFixed(2)} ms wall, +${((cpuProxied - cpuDirect) / ROUNDS / 1000).toFixed(2)} ms CPU`,
  );
}
