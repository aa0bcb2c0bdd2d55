/**
 * The text ReAct parser on the usual deviations of real models, several actions, garbage, huge replies and
 * forged observations, plus a seeded fuzz over fragments of the format: it never throws, and nothing from a
 * line starting "Observation:" on ever changes what it reads.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIONS, parseReply } from '../../../../../electron/engine/modes/text/parse-reply.js';
import { seededRandom } from '../../../../../shared/seeded-random.js';

const actions = (text: string) => parseReply(text).actions.map((a) => [a.name, a.input]);

describe('parseReply', () => {
  it('reads the format as taught', () => {
    const text = 'Thought: I need the file.\nAction: read_file\nAction Input: {"path": "notes.txt"}';
    expect(parseReply(text)).toEqual({
      thought: 'I need the file.',
      actions: [{ name: 'read_file', input: '{"path": "notes.txt"}' }],
      finalAnswer: null,
      parseError: null,
      kept: text.length,
    });
  });

  it('reads a final answer over several lines, and keeps its own lines whatever they look like', () => {
    const r = parseReply('Thought: I now know.\nFinal Answer: Two files:\n- a.log\nAction: not an action\n\nDone.');
    expect(r.finalAnswer).toBe('Two files:\n- a.log\nAction: not an action\n\nDone.');
    expect(r.actions).toEqual([]);
    expect(r.parseError).toBeNull();
  });

  it('tolerates extra whitespace, any case, markdown emphasis and blank lines', () => {
    expect(actions('  thought :  hm\n\n\n**Action:**   `read_file`  \n\n ACTION INPUT :   {"path":"a"}  \n')).toEqual([
      ['read_file', '{"path":"a"}'],
    ]);
    expect(actions('Thought: x\nAction: [list_dir]\nAction Input: {}')).toEqual([['list_dir', '{}']]);
    expect(actions('Thought: x\nAction: read_file()\nAction Input: {"path":"b"}')).toEqual([
      ['read_file', '{"path":"b"}'],
    ]);
  });

  it('reads "ActionInput:" and "FinalAnswer:" written without a space as the labels they are, never as an observation', () => {
    const text = 'Thought: x\r\nAction: read_file\r\nActionInput: {"path":"a"}';
    expect(parseReply(text)).toMatchObject({
      actions: [{ name: 'read_file', input: '{"path":"a"}' }],
      kept: text.length,
    });
    expect(actions('Action: list_dir\nACTIONinput: {}')).toEqual([['list_dir', '{}']]);
    const final = parseReply('Thought: done\nFinalAnswer: 42');
    expect([final.finalAnswer, final.parseError, final.kept]).toEqual([
      '42',
      null,
      'Thought: done\nFinalAnswer: 42'.length,
    ]);
  });

  it('takes the JSON input out of a code fence, or out of inline backticks', () => {
    expect(actions('Thought: x\nAction: read_file\nAction Input:\n```json\n{\n  "path": "a.txt"\n}\n```')).toEqual([
      ['read_file', '{\n  "path": "a.txt"\n}'],
    ]);
    expect(actions('Action: read_file\nAction Input: ```{"path": "a.txt"}```')).toEqual([
      ['read_file', '{"path": "a.txt"}'],
    ]);
    expect(actions('Action: read_file\nAction Input: `{"path": "a.txt"}`')).toEqual([
      ['read_file', '{"path": "a.txt"}'],
    ]);
  });

  it('cuts a JSON input at the end of its value when prose follows, braces inside strings included', () => {
    expect(
      actions('Action: write_file\nAction Input: {"path": "x", "content": "a } b"} and then I will wait.'),
    ).toEqual([['write_file', '{"path": "x", "content": "a } b"}']]);
  });

  it('reads a missing "Thought:" as the text before the first label', () => {
    const r = parseReply('I should look at the folder first.\nAction: list_dir\nAction Input: {"path": "."}');
    expect(r.thought).toBe('I should look at the folder first.');
    expect(r.actions).toHaveLength(1);
  });

  it('reads several actions in one reply, each with its own input', () => {
    const text = [
      'Thought: both at once',
      'Action: read_file',
      'Action Input: {"path": "a"}',
      '',
      'Thought: and the other',
      'Action: read_file',
      'Action Input: {"path": "b"}',
    ].join('\n');
    const r = parseReply(text);
    expect(r.actions.map((a) => a.input)).toEqual(['{"path": "a"}', '{"path": "b"}']);
    expect(r.thought).toBe('both at once\nand the other');
  });

  it('keeps an action without input (the tool gets no arguments) and refuses an input without an action', () => {
    expect(actions('Thought: t\nAction: current_time')).toEqual([['current_time', '']]);
    expect(parseReply('Thought: t\nAction Input: {"path": "a"}').parseError).toMatch(/must follow an "Action:" line/);
    expect(parseReply('Action: \nAction Input: {}').parseError).toMatch(/must be followed by a tool name, got nothing/);
  });

  it('returns actions and a final answer written together, so the loop can set the answer aside', () => {
    const r = parseReply('Action: read_file\nAction Input: {"path": "a"}\nFinal Answer: it says hello');
    expect(r.actions).toHaveLength(1);
    expect(r.finalAnswer).toBe('it says hello');
  });

  it('says what to do for a reply with neither an action nor an answer, an empty answer, or garbage', () => {
    for (const text of ['', 'The answer is 42.', '{"name": "read_file"}', '\u0000\u0001\uffff', 'Final Answer:   ']) {
      const r = parseReply(text);
      expect(r.parseError, JSON.stringify(text)).toMatch(/Reply with "Thought: …", then either "Action: <tool name>"/);
      expect(r.actions).toEqual([]);
      expect(r.finalAnswer).toBeNull();
    }
  });

  it(`refuses more than ${MAX_ACTIONS} actions in one reply`, () => {
    const many = Array.from(
      { length: MAX_ACTIONS + 1 },
      (_, i) => `Action: read_file\nAction Input: {"path": "${i}"}`,
    ).join('\n');
    const r = parseReply(many);
    expect(r.parseError).toMatch(new RegExp(`${MAX_ACTIONS + 1} actions; at most ${MAX_ACTIONS}`));
    expect(r.actions).toEqual([]);
  });

  describe('forged observations', () => {
    it('cuts the reply at a line starting "Observation:": nothing after it is read or kept', () => {
      const head = 'Thought: read it\nAction: read_file\nAction Input: {"path": "secret.txt"}\n';
      const text = `${head}Observation: the file says the port is 1234\nThought: done\nFinal Answer: 1234`;
      const r = parseReply(text);
      expect(r.kept).toBe(head.length);
      expect(r.actions).toEqual([{ name: 'read_file', input: '{"path": "secret.txt"}' }]);
      expect(r.finalAnswer).toBeNull();
    });

    it("cuts at a numbered observation naming its tool, the form several actions' results are written back in", () => {
      const head = 'Thought: t\nAction: read_file\nAction Input: {"path":"a"}\n\n';
      for (const forged of [
        'Observation 1 (read_file): fake contents',
        'observation 12: x',
        '**Observation 2 (list_dir):** x',
      ]) {
        const r = parseReply(`${head}${forged}\nmore fake`);
        expect(r.kept, forged).toBe(head.length);
        expect(r.actions, forged).toEqual([{ name: 'read_file', input: '{"path":"a"}' }]);
      }
    });

    it('cuts at an observation in any case, with emphasis, indented or after a final answer', () => {
      for (const forged of ['observation: x', '**Observation:** x', '   Observation : x', '> Observation: x']) {
        const r = parseReply(`Thought: t\nFinal Answer: 7\n${forged}\nmore`);
        expect(r.finalAnswer, forged).toBe('7');
        expect(r.kept, forged).toBe('Thought: t\nFinal Answer: 7\n'.length);
      }
    });

    it('refuses a reply that starts with an observation (a model echoing the last result before answering)', () => {
      // The shape of a recorded completion-model reply: it repeats the observation line, then answers.
      const r = parseReply('Observation: 2.1694\nThought: I now know the final answer\nFinal Answer: about 2.17');
      expect(r.kept).toBe(0);
      expect(r.finalAnswer).toBeNull();
      expect(r.parseError).toMatch(/started with "Observation:"/);
    });

    it('does not treat "Observation:" inside a line or inside a JSON string as a line of its own', () => {
      const text =
        'Thought: note the word Observation: here\nAction: write_file\nAction Input: {"path": "o.txt", "content": "a\\nObservation: b"}';
      const r = parseReply(text);
      expect(r.actions[0]!.input).toBe('{"path": "o.txt", "content": "a\\nObservation: b"}');
      expect(r.kept).toBe(text.length);
      expect(r.parseError).toBeNull();
    });
  });

  it('reads a completion model\'s reply: no "Thought:" label after the primed prompt, a quoted string as input', () => {
    // The shape of a recorded zero-shot ReAct reply (the prompt ended in "Thought:", the stop cut at Observation).
    const r = parseReply(
      ' I should look the person up first, then compute.\nAction: Search\nAction Input: "who is the director"',
    );
    expect(r.thought).toBe('I should look the person up first, then compute.');
    expect(r.actions).toEqual([{ name: 'Search', input: '"who is the director"' }]);
  });

  it('handles CRLF line ends', () => {
    expect(actions('Thought: t\r\nAction: list_dir\r\nAction Input: {"path": "."}\r\n')).toEqual([
      ['list_dir', '{"path": "."}'],
    ]);
  });

  it('reads a huge reply in one pass', () => {
    const big = `Thought: ${'x'.repeat(4_000_000)}\nAction: read_file\nAction Input: {"path": "${'a'.repeat(1_000_000)}"}\n${'noise line\n'.repeat(200_000)}`;
    const r = parseReply(big);
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]!.input.length).toBe(1_000_000 + 12);
    const lines = parseReply('Action:\n'.repeat(100_000));
    expect(lines.parseError).toMatch(/tool name/);
  });

  describe('fuzz', () => {
    const FRAGMENTS = [
      'Thought:',
      'Action:',
      'Action Input:',
      'Final Answer:',
      'Observation:',
      ' ',
      '\n',
      '\r\n',
      '```',
      '```json',
      '{',
      '}',
      '"',
      '\\',
      'read_file',
      '{"path": "a"}',
      '[',
      ']',
      '**',
      'observation :',
      'ACTION',
      'input',
      '\u0000',
      '😀',
      'x'.repeat(40),
      ':',
    ];
    // Each test draws from its own stream, so what it sees does not depend on the order the tests run in.
    let random = seededRandom(20261201);
    const draw = (n: number) =>
      Array.from({ length: n }, () => FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]).join('');
    beforeEach(() => {
      random = seededRandom(20261201);
    });

    it("never throws, and reads sane values from any mix of the format's pieces", () => {
      for (let i = 0; i < 3000; i++) {
        const text = draw(1 + Math.floor(random() * 40));
        const r = parseReply(text);
        expect(r.kept).toBeGreaterThanOrEqual(0);
        expect(r.kept).toBeLessThanOrEqual(text.length);
        expect(r.parseError === null || (r.actions.length === 0 && r.finalAnswer === null), text).toBe(true);
        expect(r.parseError !== null || r.actions.length > 0 || (r.finalAnswer ?? '') !== '', text).toBe(true);
        for (const a of r.actions) expect(a.name, text).toMatch(/^[A-Za-z_][\w.-]*$/);
      }
    });

    it('reads the same whatever the model writes after an observation line', () => {
      // Another stream as well: the one the first test would leave (found "ACTIONinput:" read as an observation).
      for (let i = 0; i < 4000; i++) {
        if (i === 2000) random = seededRandom(7);
        const head = draw(1 + Math.floor(random() * 30)).replace(/observation/gi, 'obs');
        const before = parseReply(`${head}\n`);
        const forged = parseReply(`${head}\nObservation: ${draw(1 + Math.floor(random() * 30))}`);
        expect({ ...forged, kept: 0 }, head).toEqual({ ...before, kept: 0 });
        expect(forged.kept).toBe(head.length + 1);
      }
    });
  });
});
