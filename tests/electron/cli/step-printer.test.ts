import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { ModelResponseEvent, RunStartedEvent } from '../../../shared/step-event.js';
import { shellNote, stepLine } from '../../../electron/cli/step-printer.js';

const started = (shellSandbox?: RunStartedEvent['shellSandbox']): RunStartedEvent => ({
  type: 'run-started',
  runId: 'r',
  seq: 0,
  t: 0,
  mode: 'react',
  task: { id: null, text: 'x' },
  settings: DEFAULT_SETTINGS,
  provider: { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true },
  systemPrompt: '',
  tools: [],
  startedAt: 0,
  ...(shellSandbox ? { shellSandbox } : {}),
});

describe('how the terminal says whether run_shell is sandboxed', () => {
  it('notes an unsandboxed run with the reason, and says nothing more for a sandboxed one', () => {
    const none = started({ kind: 'none', reason: 'bubblewrap is not installed' });
    expect(stepLine(none, '[ReAct] ')).toBe('[ReAct]      note: run_shell NOT sandboxed: bubblewrap is not installed');
    expect(shellNote(none)).toBe(' · run_shell NOT sandboxed: bubblewrap is not installed');
    expect(stepLine(started({ kind: 'bubblewrap', reason: 'ok' }))).toBeNull();
    expect(shellNote(started({ kind: 'bubblewrap', reason: 'ok' }))).toBe(' · run_shell sandboxed (bubblewrap)');
    expect(shellNote(started())).toBe(''); // recorded before the field existed
  });
});

describe('the line of a step', () => {
  const response = (extra: Partial<ModelResponseEvent>): ModelResponseEvent => ({
    type: 'model-response',
    runId: 'r',
    seq: 1,
    t: 1,
    step: 2,
    usage: { prompt: 100, completion: 9 },
    latencyMs: 12,
    finishReason: 'stop',
    text: 'x',
    toolCalls: [],
    ...extra,
  });
  it('names the calls, the answer, or a text ReAct reply that could not be read', () => {
    expect(stepLine(response({ toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }] }))).toMatch(
      /12ms {2}read_file$/,
    );
    expect(stepLine(response({}))).toMatch(/\(answer\)$/);
    const parsed = {
      thought: null,
      finalAnswer: null,
      parseError: 'Your reply has neither an "Action:" nor a "Final Answer:".',
      kept: 1,
    };
    expect(stepLine(response({ parsed }))).toMatch(/\(reply not read: parse error sent back\)$/);
    expect(stepLine(response({ parsed: { ...parsed, parseError: null, finalAnswer: 'x' } }))).toMatch(/\(answer\)$/);
  });
  it('never calls a reply refused, filtered, cut short or empty an answer, whatever text it held', () => {
    const filtered = '(refused or filtered by the provider: not an answer)';
    for (const finishReason of ['content_filter', 'SAFETY', 'RECITATION', 'PROHIBITED_CONTENT'])
      expect(stepLine(response({ finishReason, text: 'a.txt holds "alpha"' }))).toMatch(
        new RegExp(`${filtered.replace(/[()]/g, '\\$&')}$`),
      );
    expect(
      stepLine(response({ finishReason: 'content_filter', stopReason: 'refusal', text: 'Final Answer: alpha' })),
    ).toContain(filtered);
    expect(stepLine(response({ refusal: "I can't help with that.", text: "I can't help with that." }))).toContain(
      filtered,
    );
    // A filtered reply's calls were not run: the line says so.
    expect(
      stepLine(
        response({ finishReason: 'content_filter', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }] }),
      ),
    ).toMatch(/read_file not run \(refused or filtered by the provider: not an answer\)$/);
    expect(stepLine(response({ finishReason: 'length', text: 'a.txt h' }))).toMatch(
      /\(cut short at the token limit: not an answer\)$/,
    );
    expect(stepLine(response({ finishReason: 'stop', text: '  ' }))).toMatch(/\(empty reply: not an answer\)$/);
  });
});

describe('MCP lines', () => {
  const base = { runId: 'r', seq: 1, t: 1 };
  it("prints a tool's progress and a sampling request with its tokens or why it was refused", () => {
    expect(
      stepLine({
        ...base,
        type: 'tool-progress',
        step: 1,
        callId: 'c',
        name: 'srv_long',
        progress: 2,
        total: 4,
        message: 'half',
        inProgram: false,
      }),
    ).toBe('     srv_long progress 2 of 4: half');
    const sampling = {
      ...base,
      type: 'sampling' as const,
      step: 1,
      callId: 'c',
      server: 'srv',
      messages: [],
      maxTokens: 5,
      latencyMs: 3,
      text: 'x',
      finishReason: 'stop',
    };
    expect(stepLine({ ...sampling, usage: { prompt: 7, completion: 3 }, error: null })).toBe(
      "     sampling for srv answered by the run's model (prompt 7, completion 3; counted in the run's tokens)",
    );
    expect(stepLine({ ...sampling, usage: null, error: 'denied' })).toBe('     sampling for srv refused: denied');
  });
});
