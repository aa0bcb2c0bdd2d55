/**
 * The simulated model in text ReAct: it reads the conversation in native form (several actions and their
 * numbered observations included), writes its replies in the format with the trial's deviation, and cuts a
 * reply at the request's stop sequence as a server does. Pure calls, no server.
 */
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../../electron/engine/modes/text/parse-reply.js';
import { observationMessage, textReActPrompt } from '../../../electron/engine/modes/text/text-prompt.js';
import { cutAtStop, deviationOf, nativeForm, writeTextReply } from '../../../electron/sim/policies/react-text.js';
import { modeOf } from '../../../electron/sim/policies/index.js';
import type { ToolExposure } from '../../../shared/step-event.js';

const tools: ToolExposure[] = ['read_file', 'list_dir'].map((name) => ({
  name,
  description: `${name} tool.`,
  parameters: { type: 'object', properties: {} },
}));
const system = textReActPrompt('You are an agent.', tools);

describe('text ReAct on the simulated model', () => {
  it('recognises the mode from the format in the system prompt when no tools are sent', () => {
    expect(modeOf(new Set(), { systemPrompt: system })).toBe('react-text');
    expect(modeOf(new Set(), { systemPrompt: 'You are an agent.' })).toBe('react');
    expect(
      nativeForm([{ role: 'system', content: system }], [{ type: 'function', function: { name: 'read_file' } }]),
    ).toBeNull();
  });

  it('reads actions as tool calls and each numbered observation as its result', () => {
    const reply =
      'Thought: both\nAction: read_file\nAction Input: {"path": "a"}\nThought: and\nAction: read_file\nAction Input: {"path": "b"}';
    const parsed = { thought: 'both\nand', finalAnswer: null, parseError: null, kept: reply.length };
    const obs = observationMessage({ parsed, actions: [{ name: 'read_file' }, { name: 'read_file' }] }, [
      'A\n\nline',
      'B',
    ]);
    const native = nativeForm(
      [
        { role: 'system', content: system },
        { role: 'user', content: 'task' },
        { role: 'assistant', content: reply },
        { role: 'user', content: obs },
      ],
      [],
    )!;
    expect(native.tools.map((t) => t.function.name)).toEqual(['read_file', 'list_dir']);
    const calls = native.messages[2]!.tool_calls!;
    expect(calls.map((c) => c.function.arguments)).toEqual(['{"path": "a"}', '{"path": "b"}']);
    expect(native.messages.slice(3)).toEqual([
      { role: 'tool', tool_call_id: calls[0]!.id, content: 'A\n\nline' },
      { role: 'tool', tool_call_id: calls[1]!.id, content: 'B' },
    ]);
    // The task stays the last user message.
    expect(native.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['task']);
  });

  it("writes every trial's deviation so that the engine parses it back to the same calls", () => {
    const planned = {
      kind: 'tools' as const,
      text: '',
      calls: [
        { name: 'read_file', arguments: '{"path":"a.txt"}' },
        { name: 'list_dir', arguments: '{}' },
      ],
    };
    const seen = new Set<string>();
    for (let trial = 1; trial <= 40; trial++) {
      seen.add(deviationOf(trial));
      const text = cutAtStop(writeTextReply(planned, trial), ['Observation:']);
      const read = parseReply(text);
      expect(read.actions, `trial ${trial} (${deviationOf(trial)})`).toEqual([
        { name: 'read_file', input: '{"path":"a.txt"}' },
        { name: 'list_dir', input: '{}' },
      ]);
      expect(read.kept).toBe(text.length);
      const answer = parseReply(writeTextReply({ kind: 'text', text: 'It is 42.' }, trial));
      expect(answer.finalAnswer).toBe('It is 42.');
    }
    expect(seen).toEqual(new Set(['none', 'fenced-input', 'no-thought-label', 'extra-spaces']));
    expect(deviationOf(1)).toBe('none');
  });

  it('writes on into a guessed observation without a stop sequence, and a stop cuts it off', () => {
    const full = writeTextReply({ kind: 'tools', text: '', calls: [{ name: 'list_dir', arguments: '{}' }] }, 1);
    expect(full).toMatch(/\nObservation: the result, as I expect it\.$/);
    expect(cutAtStop(full, ['Observation:'])).toBe(full.slice(0, full.indexOf('Observation:')));
    expect(cutAtStop(full, [])).toBe(full);
    expect(cutAtStop('abc', ['', 'z'])).toBe('abc');
  });
});
