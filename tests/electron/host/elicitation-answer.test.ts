/**
 * An MCP server's form answered through the host, as the app's card does: real worker processes, the SDK test
 * server over stdio (its `ask` tool returns what it received), a scripted model on loopback. The host passes
 * the answer to the waiting worker; the engine checks it; the server gets it; the record names the request.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonRequest } from '../../../shared/run-spec.js';
import type {
  ElicitationEvent,
  ElicitationRequestedEvent,
  RunFinishedEvent,
  StepEvent,
} from '../../../shared/step-event.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import { stdioServer } from '../../helpers/mcp-test-server.js';
import { mcpScriptedModel, type ScriptedModel } from '../../helpers/mcp-scripted-model.js';
import { waitFor } from './session-helpers.js';

const FORM = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Your name', minLength: 2 }, age: { type: 'integer', maximum: 150 } },
  required: ['name'],
};

const open: { host: Host; model: ScriptedModel }[] = [];
afterEach(async () => {
  for (const { host, model } of open.splice(0)) {
    await host.close();
    await model.close();
  }
});

async function rig(elicitation?: boolean, calls = 1) {
  const model = await mcpScriptedModel(
    Array.from({ length: calls }, () => ({ name: 't_ask', args: { message: 'Who are you?', schema: FORM } })),
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-elicit-host-'));
  const events: StepEvent[] = [];
  const host = createHost({
    dataDir,
    caller: 'cli',
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
    ...(elicitation !== undefined ? { elicitation } : {}),
  });
  open.push({ host, model });
  const request: ComparisonRequest = {
    task: 'Ask me.',
    modes: ['react'],
    provider: { name: 'custom', baseUrl: model.url, model: 'm' },
    mcpServers: [stdioServer('t', { callTimeoutMs: 3000 })],
  };
  const meta = await host['comparison:start'](request);
  return { host, model, events, meta, runId: meta.runs[0]!.runId };
}

const asked = (events: StepEvent[]) =>
  events.filter((e): e is ElicitationRequestedEvent => e.type === 'elicitation-requested');
const answered = (events: StepEvent[]) => events.filter((e): e is ElicitationEvent => e.type === 'elicitation');
const finished = (events: StepEvent[]) => events.find((e): e is RunFinishedEvent => e.type === 'run-finished');
/** What the server returned for each call: the answers it received, as the model was sent them. */
const toolReplies = (model: ScriptedModel) =>
  ((model.requests.at(-1)?.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('elicitation answered through the host', () => {
  it('passes the answer to the waiting call, past the call timeout; the server gets it and the record names the request', async () => {
    const { host, model, events, meta, runId } = await rig(true, 2);
    await waitFor(() => asked(events).length === 1, 120_000);
    const [q] = asked(events);
    expect(q).toMatchObject({ server: 't', message: 'Who are you?', elicitationId: 'e1', timeoutMs: 300_000 });
    expect(q.fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['age', 'integer', false],
    ]);
    // The wait outlasts the 3 s call timeout: a person's time is not the call's.
    await new Promise((r) => setTimeout(r, 3500));
    await host['elicitation:answer'](runId, q.elicitationId, { action: 'accept', content: { name: 'Ada', age: 36 } });
    await expect(
      host['elicitation:answer'](runId, q.elicitationId, { action: 'accept', content: { name: 'Ada' } }),
    ).rejects.toThrow(
      /not waiting for the answer to form e1: it was already answered, its time ran out, or the run ended/,
    );
    // The second form: an answer that does not fit is cancelled by the engine, whatever the surface checked.
    await waitFor(() => asked(events).length === 2, 60_000);
    await host['elicitation:answer'](runId, asked(events)[1].elicitationId, {
      action: 'accept',
      content: { name: 'A', age: 200 },
    });
    await host.whenDone(meta.id);
    expect(finished(events)?.status).toBe('answered');
    const [first, second] = answered(events);
    expect(first).toMatchObject({ elicitationId: 'e1', action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(first.waitedMs).toBeGreaterThanOrEqual(3400);
    expect(second).toMatchObject({
      elicitationId: 'e2',
      action: 'cancel',
      reason: expect.stringMatching(/did not fit the form: Your name: at least 2 characters; age: at most 150/),
    });
    expect(toolReplies(model).map((t) => JSON.parse(t) as unknown)).toEqual([
      [{ action: 'accept', content: { name: 'Ada', age: 36 } }],
      [{ action: 'cancel' }],
    ]);
  });

  it('refuses an answer that is not one, and a cancel of the run ends the wait with nothing lost', async () => {
    const { host, events, meta, runId } = await rig(true);
    await waitFor(() => asked(events).length === 1, 120_000);
    await expect(host['elicitation:answer'](runId, 'e1', { action: 'maybe' } as never)).rejects.toThrow(
      /"maybe" is not an answer to a form; answer accept, decline, cancel/,
    );
    await expect(
      host['elicitation:answer'](runId, 'e1', { action: 'accept', content: ['x'] } as never),
    ).rejects.toThrow(/object of field → value/);
    await host['run:cancel'](runId);
    await host.whenDone(meta.id);
    expect(finished(events)?.status).toBe('cancelled');
    // The request and its ending are both recorded; the host no longer holds the form.
    expect(answered(events)).toEqual([
      expect.objectContaining({ elicitationId: 'e1', action: 'cancel', reason: 'the run or the call ended first' }),
    ]);
    await expect(host['elicitation:answer'](runId, 'e1', { action: 'decline' })).rejects.toThrow(
      /not running in this app|not waiting/,
    );
  });

  it('declines each form where nobody can answer (the CLI without a terminal), asking nobody', async () => {
    const { host, model, events, meta } = await rig();
    await host.whenDone(meta.id);
    expect(asked(events)).toEqual([]);
    expect(answered(events)).toEqual([
      expect.objectContaining({ action: 'decline', reason: 'nobody can answer in this run', waitedMs: 0 }),
    ]);
    expect(JSON.parse(toolReplies(model)[0]!)).toEqual([{ action: 'decline' }]);
  });
});
