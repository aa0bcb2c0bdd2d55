/**
 * The tutorial profile (settings.toolset = 'seed') against the tutorial's published figures: the real engine,
 * real tools and sandbox, the simulated model over HTTP counting as the tutorial's provider did. Code Mode's
 * three steps (461, 594, 951) and ReAct's first request (≈ 631) are the per-step figures it published.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { ACCOUNTING_HEADER, TUTORIAL_TEMPLATE } from '../../../electron/sim/accounting.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { runTaskOf, validateAnswer } from '../../../electron/tasks/index.js';
import { parseSettings, type RunSpec } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { closeSandbox, fixtureFolders } from './drive.js';

let sim: SimServer;
const folders = fixtureFolders('parallax-seed-toolset');

beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  closeSandbox();
  await sim.close();
  await folders.removeAll();
});

type Mode = 'react' | 'code' | 'hybrid' | 'react-search';

async function seedRun(mode: Mode, fixtureSeed: number, toolset: 'seed' | 'parallax' = 'seed') {
  const workspace = await folders.workspaceFor('log-stats', fixtureSeed);
  const events: StepEvent[] = [];
  const task = resolveTask('log-stats', { fixtureUrl: null });
  const spec: RunSpec = {
    runId: randomUUID(),
    task,
    mode,
    provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
    apiKeyEnv: null,
    settings: parseSettings({ toolset, returnTypes: false }),
    workspace,
    trial: 1,
  };
  await runEngine(
    spec,
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf(spec.task),
  );
  const started = events.find((e) => e.type === 'run-started')!;
  const prompts = events.flatMap((e) => (e.type === 'model-response' && e.usage ? [e.usage.prompt] : []));
  const finished = events.find((e) => e.type === 'run-finished')!;
  const answer = finished.type === 'run-finished' ? finished.answer : '';
  const valid = (await validateAnswer(task, answer, { workspace }))?.ok;
  const shellOutputs = events.flatMap((e) => (e.type === 'tool-finished' && e.name === 'run_shell' ? [e.output] : []));
  const replies = events.flatMap((e) => (e.type === 'model-response' ? [e] : []));
  return { started, prompts, valid, shellOutputs, finished, replies };
}

const within = (value: number, target: number, share: number) => Math.abs(value - target) / target <= share;

describe('the tutorial profile', () => {
  it("offers the tutorial's six tools, one line each, every argument a string, and its system prompt", async () => {
    const { started, valid, shellOutputs } = await seedRun('react', 1);
    if (started.type !== 'run-started') throw new Error('no run-started');
    expect(started.systemPrompt).toBe('You are a helpful agent. Use the tools to act.');
    expect(started.tools.map((t) => t.name)).toEqual([
      'list_dir',
      'read_file',
      'write_file',
      'run_shell',
      'fetch_url',
      'current_time',
    ]);
    for (const tool of started.tools) {
      expect(tool.description).not.toContain('\n');
      expect(tool.description.length).toBeLessThan(90);
      const props = Object.values(
        (tool.parameters as { properties: Record<string, { type: string; description?: string }> }).properties,
      );
      expect(props.every((p) => p.type === 'string' && p.description === undefined)).toBe(true);
    }
    // run_shell answers in plain text, as the tutorial's tools did, and the simulated model still reads it.
    expect(shellOutputs.length).toBeGreaterThan(1);
    for (const out of shellOutputs) expect(() => JSON.parse(out)).toThrow();
    expect(shellOutputs[0]).toMatch(/^\s*\d+ \S+\.txt$/m);
    expect(valid).toBe(true);
  });

  it("thinks as the tutorial's model did: every reply carries reasoning, recorded on its step and charged again in every later request", async () => {
    const { replies } = await seedRun('react', 4);
    expect(replies).toHaveLength(5);
    for (const r of replies) {
      expect(r.reasoningText, `step ${r.step}`).toMatch(/\w{3,}/);
      // A tool-call turn's "why" is in the reasoning; its text is empty, as a thinking reply's is.
      if (r.toolCalls.length) expect(r.text).toBe('');
    }
    expect(replies[0]!.reasoningText).toContain('Nothing has been looked at yet');
    // Request 2 is request 1 plus the first turn, its reasoning included, and the first tool result.
    const { countPromptTokens } = await import('../../../electron/engine/tokens/count-tokens.js');
    const turn = {
      role: 'assistant',
      content: null,
      reasoning_content: replies[0]!.reasoningText,
      tool_calls: replies[0]!.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
    };
    const withThinking = countPromptTokens([turn], undefined) - countPromptTokens([], undefined);
    const without =
      countPromptTokens([{ ...turn, reasoning_content: undefined }], undefined) - countPromptTokens([], undefined);
    expect(withThinking - without).toBeGreaterThan(10);
    expect(replies[1]!.usage!.prompt - replies[0]!.usage!.prompt).toBeGreaterThan(withThinking);
    // The default profile's model does not think.
    const plain = await seedRun('react', 4, 'parallax');
    expect(plain.replies.every((r) => r.reasoningText === undefined)).toBe(true);
  });

  it("Code Mode's run_code description lists the four catalog functions in the tutorial's words", async () => {
    const { started } = await seedRun('code', 2);
    if (started.type !== 'run-started') throw new Error('no run-started');
    expect(started.systemPrompt.startsWith('You are a helpful agent. Use the tools to act.')).toBe(true);
    expect(started.tools).toHaveLength(1);
    const description = started.tools[0].description;
    expect(description).toContain(
      "- list_dir(path = '.')\n- read_file(path)\n- write_file(path, content)\n- run_shell(command)\n- search_tools(query)",
    );
    expect(description).not.toContain('fetch_url');
  });

  // Fixture seeds change the log files (and so the printed tables); every one must land within 15 %.
  it.each([1, 7, 42])(
    "log-stats, trial 1, fixture %i: within 15 percent of the tutorial's published per-step prompt tokens",
    async (fixtureSeed) => {
      const code = await seedRun('code', fixtureSeed);
      const react = await seedRun('react', fixtureSeed);
      console.log(
        `tutorial profile, fixture ${fixtureSeed}: Code Mode ${code.prompts.join(' / ')} (tutorial 461 / 594 / 951); ` +
          `ReAct ${react.prompts.join(' / ')} = ${react.prompts.reduce((a, b) => a + b, 0)} (tutorial ≈ 631 first, 5,389 in all)`,
      );
      expect(code.valid).toBe(true);
      expect(react.valid).toBe(true);
      expect(code.prompts).toHaveLength(3);
      [461, 594, 951].forEach((target, i) =>
        expect(within(code.prompts[i], target, 0.15), `Code Mode step ${i + 1}: ${code.prompts[i]} vs ${target}`).toBe(
          true,
        ),
      );
      expect(react.prompts).toHaveLength(5);
      expect(within(react.prompts[0], 631, 0.15), `ReAct step 1: ${react.prompts[0]} vs 631`).toBe(true);
      const reactTotal = react.prompts.reduce((a, b) => a + b, 0);
      expect(within(reactTotal, 5389, 0.15), `ReAct total: ${reactTotal} vs 5,389`).toBe(true);
    },
  );

  it('Hybrid and ReAct + tool search run on the profile too and answer right', async () => {
    for (const mode of ['hybrid', 'react-search'] as const) {
      const run = await seedRun(mode, 3);
      expect(run.finished.type === 'run-finished' && run.finished.status).toBe('answered');
      expect(run.valid).toBe(true);
    }
  });

  it("the default profile is counted the openai way; only the tutorial's carries the template overhead", async () => {
    const parallax = await seedRun('code', 5, 'parallax');
    if (parallax.started.type !== 'run-started') throw new Error('no run-started');
    expect(parallax.started.systemPrompt).not.toContain('helpful agent');
    // Same request, both ways: the difference is exactly the documented template overhead for one tool.
    const body = {
      model: 'sim',
      messages: [{ role: 'user', content: 'How many lines has each .txt file, and how many ERROR lines?' }],
      tools: [parallax.started.tools.map((t) => ({ type: 'function', function: t }))[0]],
    };
    const usage = async (headers: Record<string, string>) => {
      const res = await fetch(`${sim.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    };
    const plain = await usage({});
    const tutorial = await usage({ [ACCOUNTING_HEADER]: 'tutorial' });
    expect(tutorial - plain).toBe(TUTORIAL_TEMPLATE.perRequestWithTools + TUTORIAL_TEMPLATE.perTool);
    const bad = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [ACCOUNTING_HEADER]: 'anthropic' },
      body: JSON.stringify(body),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/use openai or tutorial/);
  });
});
