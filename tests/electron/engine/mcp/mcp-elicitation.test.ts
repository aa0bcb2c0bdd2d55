/**
 * MCP elicitation in real runs (runEngine, our SDK test server over stdio, a scripted model on loopback): the
 * person's answer goes back checked against the form, each request is recorded, the call's timeout stops while
 * it waits, and a hostile server's requests are bounded (schema size, count, URL mode, answers that do not fit).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { ElicitationEvent, StepEvent } from '../../../../shared/step-event.js';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import {
  MAX_ELICITATIONS_PER_RUN,
  type AskElicitation,
  type ElicitRequest,
} from '../../../../electron/engine/mcp/mcp-elicitation.js';
import { stdioServer } from '../../../helpers/mcp-test-server.js';
import { mcpScriptedModel, type ScriptedModel } from '../../../helpers/mcp-scripted-model.js';

const dirs: string[] = [];
const models: ScriptedModel[] = [];
afterAll(async () => {
  await Promise.all(models.map((m) => m.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    colour: {
      type: 'string',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    ok: { type: 'boolean' },
  },
  required: ['name', 'colour'],
};

async function run(
  args: object,
  ask: AskElicitation | undefined,
  callTimeoutMs = 10_000,
): Promise<{ events: StepEvent[]; output: string }> {
  const model = await mcpScriptedModel([{ name: 't_ask', args }]);
  models.push(model);
  const dir = await mkdtemp(join(tmpdir(), 'parallax-mcp-elicit-'));
  dirs.push(dir);
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id: null, text: 'use the tool' },
      mode: 'react',
      provider: { name: 'scripted', baseUrl: model.url, model: 'm', simulated: false },
      apiKeyEnv: null,
      settings: parseSettings({ maxSteps: 3 }),
      workspace: dir,
      mcpServers: [stdioServer('t', { callTimeoutMs })],
    },
    {
      apiKey: null,
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
      ...(ask ? { askElicitation: ask } : {}),
    },
    null,
  );
  const finished = events.find((e): e is Extract<StepEvent, { type: 'tool-finished' }> => e.type === 'tool-finished')!;
  return { events, output: finished.output };
}
const elicitations = (events: StepEvent[]) => events.filter((e): e is ElicitationEvent => e.type === 'elicitation');

describe('MCP elicitation in a run', () => {
  it('asks with the form read from the schema; the checked answer goes back and is recorded; the 3 s timeout waits', async () => {
    const seen: ElicitRequest[] = [];
    const { events, output } = await run(
      { message: 'Who are you?\u001b[2J', schema: FORM },
      async (request) => {
        seen.push(request);
        await new Promise((r) => setTimeout(r, 4500)); // the person answering after longer than the call timeout
        return { action: 'accept', content: { name: 'Ada', age: '36', colour: 'g', ok: true } };
      },
      3000,
    );
    expect(seen[0].message).toBe('Who are you?[2J');
    expect(seen[0].fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['age', 'integer', false],
      ['colour', 'choice', true],
      ['ok', 'boolean', false],
    ]);
    expect(seen[0].fields[2].options).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    expect(JSON.parse(output)).toEqual([
      { action: 'accept', content: { name: 'Ada', age: 36, colour: 'g', ok: true } },
    ]);
    const [e] = elicitations(events);
    expect(e).toMatchObject({
      server: 't',
      callId: 'c1',
      step: 1,
      action: 'accept',
      content: { name: 'Ada', age: 36, colour: 'g', ok: true },
    });
    expect(e.reason).toBeUndefined();
    expect(e.waitedMs).toBeGreaterThanOrEqual(4400);
  });

  it('an answer that does not fit the form is never sent: the request is cancelled, saying why', async () => {
    const { events, output } = await run({ message: 'Age?', schema: FORM }, async () => ({
      action: 'accept',
      content: { name: 'A', age: 200, colour: 'blue' },
    }));
    expect(JSON.parse(output)).toEqual([{ action: 'cancel' }]);
    expect(elicitations(events)[0].reason).toMatch(
      /did not fit the form: Your name: at least 2 characters; age: at most 150; colour: choose one of r, g/,
    );
  });

  it("declines when nobody can answer, and a person's decline goes back as one", async () => {
    const none = await run({ message: 'Name?', schema: FORM }, undefined);
    expect(JSON.parse(none.output)).toEqual([{ action: 'decline' }]);
    expect(elicitations(none.events)[0]).toMatchObject({
      action: 'decline',
      reason: 'nobody can answer in this run',
      waitedMs: 0,
    });
    const declined = await run({ message: 'Name?', schema: FORM }, async () => ({ action: 'decline' }));
    expect(elicitations(declined.events)[0]).toMatchObject({ action: 'decline' });
    expect(elicitations(declined.events)[0].reason).toBeUndefined();
  });

  it('a hostile server: a huge form, too many fields, too many requests are declined without asking', async () => {
    let asked = 0;
    const ask: AskElicitation = async () => {
      asked += 1;
      return { action: 'accept', content: { name: 'Ada', colour: 'r' } };
    };
    const huge = await run(
      {
        message: 'x',
        schema: { type: 'object', properties: { a: { type: 'string', description: 'd'.repeat(30_000) } } },
      },
      ask,
    );
    expect(elicitations(huge.events)[0]).toMatchObject({
      action: 'decline',
      reason: expect.stringMatching(/Parallax shows at most 20000/),
    });
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const wide = await run({ message: 'x', schema: { type: 'object', properties: many } }, ask);
    expect(elicitations(wide.events)[0].reason).toMatch(/30 fields; Parallax shows at most 20/);
    expect(asked).toBe(0);
    const repeated = await run({ message: 'x', schema: FORM, times: MAX_ELICITATIONS_PER_RUN + 2 }, ask);
    expect(asked).toBe(MAX_ELICITATIONS_PER_RUN);
    const all = elicitations(repeated.events);
    expect(all.map((e) => e.action)).toEqual([...Array(MAX_ELICITATIONS_PER_RUN).fill('accept'), 'decline', 'decline']);
    expect(all.at(-1)!.reason).toMatch(/already asked 5 times/);
  });
});
