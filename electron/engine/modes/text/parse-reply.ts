/**
 * Reads a reply in the text ReAct format (Thought / Action / Action Input / Final Answer). The text is
 * untrusted model output: the reader goes line by line in one pass (no backtracking patterns over the whole
 * reply) and never throws; what it cannot read becomes a parse error that goes back to the model.
 *
 * Tolerated, because models do it: labels in any case, with extra spaces or markdown emphasis (**Action:**),
 * a missing "Thought:" (text before the first label is the thought), the JSON input in a code fence or
 * followed by more prose, a tool name in backticks or with "()", several actions in one reply.
 *
 * An observation is never read from the model: the reply is cut at the first line that starts with
 * "Observation:" (a model that ignores the stop sequence writes its guess of the result there), and nothing
 * after it is parsed or goes back into the history.
 */
import { JsonCompleteness } from '../../provider/json-completeness.js';

export interface ParsedAction {
  /** The tool named after "Action:". */
  readonly name: string;
  /** The Action Input as written, without a code fence; '' when the model wrote none. */
  readonly input: string;
}

export interface TextReply {
  readonly thought: string | null;
  readonly actions: readonly ParsedAction[];
  readonly finalAnswer: string | null;
  readonly parseError: string | null;
  /** Characters of the reply kept: it is cut before a line starting with "Observation:". */
  readonly kept: number;
}

/** Actions run from one reply at most; more is read as a reply gone wrong. */
export const MAX_ACTIONS = 16;

type Label = 'thought' | 'action' | 'input' | 'final' | 'observation';

// One line, anchored, each part a bounded class: linear in the line's length. An observation may be numbered
// and name its tool ("Observation 2 (read_file):"), as the results of several actions are written back.
const LABEL =
  /^[ \t>#*_]*(thought|action[ \t]*input|action|final[ \t]*answer|observation(?:[ \t]*\d{1,4})?(?:[ \t]*\([^)\n]{0,128}\))?)[ \t]*[*_]*[ \t]*:[ \t]*[*_]*[ \t]?/i;

function labelOf(line: string): { label: Label; rest: string } | null {
  const m = LABEL.exec(line);
  if (!m) return null;
  // Spaces out: "Action Input", "ActionInput" and "Action  Input" are one label (a model writes each).
  const word = m[1]!.toLowerCase().replace(/[ \t]+/g, '');
  const label: Label =
    word === 'thought'
      ? 'thought'
      : word === 'action'
        ? 'action'
        : word === 'actioninput'
          ? 'input'
          : word === 'finalanswer'
            ? 'final'
            : 'observation'; // numbered or not
  return { label, rest: line.slice(m[0].length) };
}

interface Segment {
  readonly label: Label | 'preface';
  lines: string[];
}

export const FORMAT_HINT =
  'Reply with "Thought: …", then either "Action: <tool name>" and "Action Input: <one JSON object>", or "Final Answer: <your answer>".';

export function parseReply(text: string): TextReply {
  const segments: Segment[] = [];
  let current: Segment = { label: 'preface', lines: [] };
  let kept = text.length;
  let offset = 0;
  let inFinal = false;
  while (offset <= text.length) {
    const end = text.indexOf('\n', offset);
    const stop = end === -1 ? text.length : end;
    const line = text.slice(offset, stop).replace(/\r$/, '');
    const found = labelOf(line);
    if (found?.label === 'observation') {
      kept = offset;
      break;
    }
    // A final answer runs to the end of the reply: its own lines may look like anything.
    if (found && !inFinal) {
      segments.push(current);
      current = { label: found.label, lines: [found.rest] };
      inFinal = found.label === 'final';
    } else current.lines.push(line);
    if (end === -1) break;
    offset = end + 1;
  }
  segments.push(current);
  return read(segments, text, kept);
}

function read(segments: readonly Segment[], text: string, kept: number): TextReply {
  const thoughts: string[] = [];
  const actions: { name: string; input: string | null }[] = [];
  let finalAnswer: string | null = null;
  let problem: string | null = null;
  for (const seg of segments) {
    const body = seg.lines.join('\n').trim();
    switch (seg.label) {
      case 'preface':
      case 'thought':
        if (body !== '' && !/^`{3,}\w*$/.test(body)) thoughts.push(body);
        break;
      case 'action': {
        const name = toolName(body);
        if (name === null) problem ??= `"Action:" must be followed by a tool name, got ${quote(body)}.`;
        actions.push({ name: name ?? '', input: null });
        break;
      }
      case 'input': {
        const last = actions.at(-1);
        if (!last || last.input !== null) problem ??= '"Action Input:" must follow an "Action:" line naming the tool.';
        else last.input = inputOf(body);
        break;
      }
      case 'final':
        finalAnswer = body;
        break;
      // What the model wrote from its own "Observation:" on is no part of its reply (kept stops before it).
      case 'observation':
        break;
    }
  }
  const thought = thoughts.length ? thoughts.join('\n') : null;
  const result = (parseError: string | null, list = actions): TextReply => ({
    thought,
    actions: parseError ? [] : list.map((a) => ({ name: a.name, input: a.input ?? '' })),
    finalAnswer: parseError ? null : finalAnswer,
    parseError,
    kept,
  });
  if (problem) return result(`Your reply could not be read: ${problem} ${FORMAT_HINT}`);
  if (actions.length > MAX_ACTIONS)
    return result(
      `Your reply has ${actions.length} actions; at most ${MAX_ACTIONS} run in one step. Send fewer, then continue after their observations.`,
    );
  if (actions.length > 0) return result(null);
  if (finalAnswer !== null && finalAnswer !== '') return result(null);
  if (finalAnswer === '') return result(`Your "Final Answer:" is empty. ${FORMAT_HINT}`);
  if (kept === 0 && text.trim() !== '')
    return result(
      `Your reply started with "Observation:", but observations come from the tools, after an action. ${FORMAT_HINT}`,
    );
  return result(`Your reply has neither an "Action:" nor a "Final Answer:". ${FORMAT_HINT}`);
}

/** `read_file`, "read_file", [read_file], read_file() or "read_file with …": the name; null when there is none. */
function toolName(body: string): string | null {
  const first = body
    .split('\n', 1)[0]!
    .trim()
    .replace(/^[`"'[(*]+/, '');
  const m = /^[A-Za-z_][\w.-]{0,127}/.exec(first);
  return m ? m[0].replace(/[.-]+$/, '') : null;
}

/** The input without a code fence; a JSON object or array followed by prose is cut at the end of the value. */
function inputOf(body: string): string {
  let input = body;
  const fence = /^`{3,}[\w-]*[ \t]*\n?/.exec(input);
  if (fence) {
    input = input.slice(fence[0].length);
    const close = input.lastIndexOf('```');
    if (close !== -1) input = input.slice(0, close);
  } else if (/^`[^`]/.test(input) && input.endsWith('`')) input = input.slice(1, -1);
  input = input.trim();
  if (input.startsWith('{') || input.startsWith('[')) {
    const json = new JsonCompleteness();
    for (let i = 0; i < input.length; i++) {
      json.feed(input[i]!);
      if (json.complete) return input.slice(0, i + 1);
    }
  }
  return input;
}

function quote(text: string): string {
  if (text === '') return 'nothing';
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
