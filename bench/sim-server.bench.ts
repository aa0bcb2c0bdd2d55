/**
 * The simulated model's own cost, so it never distorts what a comparison measures: token counting of a large
 * request, and the round trip of a streamed reply through the real `openai` SDK (usage chunk included).
 */
import OpenAI from 'openai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../shared/run-spec.js';
import { BUILTIN_TASKS } from '../shared/tasks.js';
import { countPromptTokens } from '../electron/engine/tokens/count-tokens.js';
import { startSimServer } from '../electron/sim/sim-server.js';
import type { WireMessage, WireTool } from '../electron/sim/types.js';
import { prepareFixture } from '../electron/tasks/fixtures.js';
import { ALL_TOOLS, findTool, invokeTool, toolExposure, toolResultText } from '../electron/engine/tools/index.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export default async function bench(): Promise<void> {
  const sim = await startSimServer();
  const workspace = await mkdtemp(path.join(tmpdir(), 'parallax-bench-sim-'));
  try {
    await prepareFixture('log-stats', workspace);
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
    const tools: WireTool[] = ALL_TOOLS.map(toolExposure).map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    const messages: WireMessage[] = [{ role: 'user', content: BUILTIN_TASKS[0].text }];
    const ctx = { workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal };
    // Play ReAct log-stats to its last request (the largest), running the real tools, results uncut.
    for (;;) {
      const res = await client.chat.completions.create({
        model: 'sim',
        messages: messages as never,
        tools: tools as never,
      });
      const msg = res.choices[0].message;
      if (!msg.tool_calls?.length) break;
      messages.push({ role: 'assistant', content: msg.content, tool_calls: msg.tool_calls as never });
      for (const call of msg.tool_calls as { id: string; function: { name: string; arguments: string } }[]) {
        const value = await invokeTool(findTool(call.function.name)!, JSON.parse(call.function.arguments), ctx);
        messages.push({ role: 'tool', tool_call_id: call.id, content: toolResultText(value) });
      }
    }
    const bytes = Buffer.byteLength(JSON.stringify({ messages, tools }));

    const countMs: number[] = [];
    let tokens = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      tokens = countPromptTokens(messages, tools);
      countMs.push(performance.now() - t0);
    }
    console.log(
      `count prompt tokens, ${(bytes / 1024).toFixed(0)} KB request (${tokens} tokens): median ${median(countMs).toFixed(2)} ms over 20`,
    );

    const tripMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const stream = await client.chat.completions.create({
        model: 'sim',
        messages: messages as never,
        tools: tools as never,
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) void chunk;
      tripMs.push(performance.now() - t0);
    }
    console.log(
      `streamed round trip of that request through the openai SDK: median ${median(tripMs).toFixed(1)} ms over 20`,
    );
  } finally {
    await sim.close();
    await rm(workspace, { recursive: true, force: true });
  }
}
