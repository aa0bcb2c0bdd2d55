/**
 * The engine's own overhead per step: run wall time minus the time the model server spent answering.
 * A small scripted OpenAI-compatible server on loopback asks for `list_dir` nine times and then answers,
 * so each run is exactly 10 steps; it times its own handling of every request (parse → last byte written).
 * Overhead covers the SDK, streaming, event stamping, tool dispatch, the tool itself and loopback HTTP.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSettings } from '../shared/run-spec.js';
import type { StepEvent } from '../shared/step-event.js';
import { runEngine } from '../electron/engine/run-engine.js';

const STEPS = 10;
const RUNS = 9;

function chunk(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

async function startScriptedServer() {
  let serverMs = 0;
  const server = createServer((req, res) => {
    const t0 = performance.now();
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const { messages } = JSON.parse(Buffer.concat(body).toString('utf8')) as { messages: { role: string }[] };
      const step = messages.filter((m) => m.role === 'assistant').length + 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (step < STEPS) {
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: `c${step}`, type: 'function', function: { name: 'list_dir', arguments: '' } }],
          }),
        );
        res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"."}' } }] }));
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: 'Done.' }, 'stop'));
      }
      res.write(
        `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: { prompt_tokens: 100 * step, completion_tokens: 10, total_tokens: 100 * step + 10 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n', () => {
        serverMs += performance.now() - t0;
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    takeServerMs: () => {
      const v = serverMs;
      serverMs = 0;
      return v;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench(): Promise<void> {
  const server = await startScriptedServer();
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-engine-'));
  await writeFile(join(workspace, 'a.txt'), 'hello\n');
  const perStep: number[] = [];
  const perStepNoTools: number[] = [];
  const walls: number[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      const events: StepEvent[] = [];
      const t0 = performance.now();
      await runEngine(
        {
          runId: randomUUID(),
          task: { id: null, text: 'bench' },
          mode: 'react',
          provider: { name: 'bench', baseUrl: server.url, model: 'bench', simulated: false },
          apiKeyEnv: null,
          settings: parseSettings({ maxSteps: STEPS }),
          workspace,
        },
        { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
        null,
      );
      const wall = performance.now() - t0;
      const inServer = server.takeServerMs();
      const finished = events.at(-1);
      if (finished?.type !== 'run-finished' || finished.totals.steps !== STEPS)
        throw new Error('bench run did not take 10 steps');
      const toolMs = events.reduce((n, e) => n + (e.type === 'tool-finished' ? e.durationMs : 0), 0);
      if (i === 0) continue; // warm-up: module loading and JIT
      walls.push(wall);
      perStep.push((wall - inServer) / STEPS);
      perStepNoTools.push((wall - inServer - toolMs) / STEPS);
    }
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
  const m = median(perStep);
  console.log(`10-step ReAct runs against a scripted loopback server, median of ${RUNS} (after 1 warm-up):`);
  console.log(`  run wall time                       ${median(walls).toFixed(1)} ms`);
  console.log(
    `  engine overhead per step            ${m.toFixed(2)} ms  (wall − time inside the model server, ÷ ${STEPS})`,
  );
  console.log(`  … excluding the list_dir tool time  ${median(perStepNoTools).toFixed(2)} ms`);
  console.log(`  overhead share of wall time         ${(((m * STEPS) / median(walls)) * 100).toFixed(1)} %`);
}
