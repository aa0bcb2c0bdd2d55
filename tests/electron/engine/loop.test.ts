import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings, type ModeId } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { runEngine } from '../../../electron/engine/run-engine.js';

const STEPS = 15;

/** A scripted model: a tool call on every step but the last, then an answer; the call depends on the tools offered. */
function chunk(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

let server: Server;
let url = '';
let workspace = '';

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'parallax-loop-'));
  await writeFile(join(workspace, 'a.txt'), 'hello\n');
  server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      if (req.url === '/page') {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><head><title>Page</title></head><body><p>Hello</p></body></html>');
        return;
      }
      const { messages, tools } = JSON.parse(Buffer.concat(body).toString('utf8')) as {
        messages: { role: string }[];
        tools?: { function: { name: string } }[];
      };
      const step = messages.filter((m) => m.role === 'assistant').length + 1;
      const names = (tools ?? []).map((t) => t.function.name);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (step < STEPS) {
        // Every tool that takes the run's abort signal, on every step: files, shell, fetch, the compute thread.
        const page = `${url.replace('/v1', '')}/page`;
        const calls = names.includes('list_dir')
          ? [
              { name: 'list_dir', arguments: '{"path":"."}' },
              { name: 'run_shell', arguments: '{"command":"echo hi"}' },
              { name: 'fetch_url', arguments: JSON.stringify({ url: page }) },
              { name: 'calculator', arguments: '{"expression":"6*7"}' },
              { name: 'current_time', arguments: '{"timezone":"Asia/Shanghai"}' },
            ]
          : [
              {
                name: 'run_code',
                arguments: JSON.stringify({
                  code: `const [calc] = search_tools("calculator"); const [fetchUrl] = search_tools("fetch_url"); print(calc({expression: "6*7"})); print(list_dir({path: "."}).length); print(run_shell({command: "echo hi"}).stdout); print(fetchUrl({url: ${JSON.stringify(page)}}).status);`,
                }),
              },
            ];
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: calls.map((function_, index) => ({
              index,
              id: `c${step}-${index}`,
              type: 'function',
              function: function_,
            })),
          }),
        );
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: 'Done.' }, 'stop'));
      }
      res.write(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await rm(workspace, { recursive: true, force: true });
});

describe('a run longer than ten steps', () => {
  it.each<ModeId>(['react', 'code'])(
    '%s: 15 steps on one abort signal leave no listener behind and print no warning',
    async (mode) => {
      const warnings: string[] = [];
      const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
      process.on('warning', onWarning);
      const events: StepEvent[] = [];
      try {
        await runEngine(
          {
            runId: randomUUID(),
            task: { id: null, text: 'list the files' },
            mode,
            provider: { name: 'scripted', baseUrl: url, model: 'm', simulated: false },
            apiKeyEnv: null,
            settings: parseSettings({
              maxSteps: 20,
              approvals: { run_shell: 'allow', fetch_url: 'allow', write_file: 'allow' },
            }),
            workspace,
            fixtureUrl: `${url.replace('/v1', '')}/page`,
          },
          { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
          null,
        );
        // Warnings are emitted on the next tick.
        await new Promise((ok) => setImmediate(ok));
      } finally {
        process.off('warning', onWarning);
      }
      const finished = events.at(-1);
      expect(finished?.type === 'run-finished' && finished.status).toBe('answered');
      expect(events.filter((e) => e.type === 'model-request')).toHaveLength(STEPS);
      const finishedCalls = events.filter((e) => e.type === 'tool-finished');
      expect(finishedCalls.length).toBe((STEPS - 1) * (mode === 'react' ? 5 : 1));
      expect(
        finishedCalls
          .filter((e) => e.type === 'tool-finished' && e.error !== null)
          .map((e) => e.type === 'tool-finished' && e.output),
      ).toEqual([]);
      if (mode === 'code')
        for (const e of finishedCalls) expect(e.type === 'tool-finished' && e.output).toMatch(/42[\s\S]*hi[\s\S]*200/);
      expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    },
  );
});
