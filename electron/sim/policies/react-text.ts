/**
 * Text ReAct on the simulated model. A request with no tools whose system prompt teaches the Thought / Action /
 * Action Input format is read as the same conversation in native form (each Action a tool call, each
 * Observation its tool message), so ReAct's policies make every decision; the reply is then written back as
 * text: "Thought: … Action: … Action Input: …" or "Final Answer: …".
 *
 * Like a model, the simulated one writes on past its last Action Input with a guess at the observation; a
 * request with a stop sequence cuts the reply there, as a real server does (cutAtStop). Each trial after the
 * first draws one of the usual deviations of real models (the input in a code fence, no "Thought:" label,
 * extra spaces), so the engine's parser is exercised by whole runs.
 */
import { parseReply } from '../../engine/modes/text/parse-reply.js';
import { textOf, type SimReply, type WireMessage, type WireTool } from '../types.js';
import { trialDraws } from './common.js';

/** Whether a system prompt teaches the text ReAct format (any agent's wording of the classic format). */
export function isTextReActPrompt(system: string): boolean {
  return /^\s*Action Input:/im.test(system) && /Final Answer:/i.test(system);
}

/** The tools a text ReAct prompt lists: "- name: description" lines, else the names in "one of [a, b]". */
function listedTools(system: string): WireTool[] {
  const listed = [...system.matchAll(/^- ([A-Za-z_][\w.-]*):(.*)$/gm)];
  const described = new Map(listed.map((m) => [m[1]!, m[2]!.replace(/\s*Input:\s*\{.*$/, '').trim()]));
  let names = listed.map((m) => m[1]!);
  if (names.length === 0)
    names = (/one of \[([^\]\n]*)\]/i.exec(system)?.[1] ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
  return [...new Set(names)].map((name) => ({
    type: 'function',
    function: { name, ...(described.get(name) ? { description: described.get(name) } : {}) },
  }));
}

/**
 * The request in native form, or null when it is not text ReAct: the offered tools from the prompt's list,
 * each assistant turn's actions as tool calls, and the user message after it as their results.
 */
export function nativeForm(
  messages: readonly WireMessage[],
  tools: readonly WireTool[],
): { messages: WireMessage[]; tools: WireTool[] } | null {
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  const prompt = system ? textOf(system.content) : '';
  if (tools.length > 0 || !isTextReActPrompt(prompt)) return null;
  const out: WireMessage[] = [];
  let pending: { ids: string[]; names: string[] } | null = null;
  let turn = 0;
  for (const m of messages) {
    if (m.role === 'assistant') {
      const read = parseReply(textOf(m.content));
      turn++;
      const calls = read.actions.map((a, i) => ({
        id: `text_${turn}_${i + 1}`,
        type: 'function' as const,
        function: { name: a.name, arguments: a.input },
      }));
      out.push({
        role: 'assistant',
        content: calls.length ? null : textOf(m.content),
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      pending = { ids: calls.map((c) => c.id), names: calls.map((c) => c.function.name) };
    } else if (m.role === 'user' && pending && pending.ids.length > 0) {
      // The observation: one result per action of the turn before it.
      const results = splitObservation(textOf(m.content), pending.names);
      pending.ids.forEach((id, i) => out.push({ role: 'tool', tool_call_id: id, content: results[i] ?? '' }));
      pending = null;
    } else {
      // A user message after a reply without actions is the harness answering a final answer: kept as it is.
      pending = null;
      out.push(m);
    }
  }
  return { messages: out, tools: listedTools(prompt) };
}

/** "Observation: x", or "Observation 1 (read_file): x\n\nObservation 2 (…): y", after any note line. */
function splitObservation(text: string, names: readonly string[]): string[] {
  if (names.length <= 1) {
    const at = text.search(/^Observation:[ \t]?/m);
    return [at < 0 ? text : text.slice(at).replace(/^Observation:[ \t]?/, '')];
  }
  const marks = names.map((name, i) => `Observation ${i + 1} (${name}): `);
  const out: string[] = [];
  let from = text.indexOf(marks[0]!);
  for (let i = 0; i < marks.length && from >= 0; i++) {
    const start = from + marks[i]!.length;
    const next = i + 1 < marks.length ? text.indexOf(`\n\n${marks[i + 1]}`, start) : -1;
    out.push(next < 0 ? text.slice(start) : text.slice(start, next));
    from = next < 0 ? -1 : next + 2;
  }
  return out;
}

type Deviation = 'none' | 'fenced-input' | 'no-thought-label' | 'extra-spaces';

/** Trial 1 writes the format as taught; later trials draw one deviation (a share of them none). */
export function deviationOf(trial: number): Deviation {
  if (trial <= 1) return 'none';
  const r = trialDraws(trial, 'react-text-format')();
  return r < 0.2 ? 'fenced-input' : r < 0.4 ? 'no-thought-label' : r < 0.55 ? 'extra-spaces' : 'none';
}

/** A short thought before an action, naming what it is for (the decision itself is ReAct's policy). */
function thoughtFor(name: string, args: string): string {
  let a: Record<string, unknown> = {};
  try {
    a = JSON.parse(args) as Record<string, unknown>;
  } catch {
    /* a broken input (a fault): the generic thought */
  }
  const s = (key: string) => (typeof a[key] === 'string' ? (a[key] as string) : null);
  if (name === 'read_file' && s('path')) return `I need the content of ${s('path')}.`;
  if (name === 'list_dir') return `I should see which files are in ${s('path') ?? 'the folder'}.`;
  if (name === 'write_file' && s('path')) return `I will write the result to ${s('path')}.`;
  if (name === 'run_shell' && s('command')) return `I will run \`${s('command')}\`.`;
  if (name === 'fetch_url' && s('url')) return `I need the page at ${s('url')}.`;
  if (name === 'current_time') return `I need the current time${s('timezone') ? ` in ${s('timezone')}` : ''}.`;
  if (name === 'calculator' && s('expression')) return `I will compute ${s('expression')}.`;
  if (name === 'get_weather' && s('city')) return `I need the weather in ${s('city')}.`;
  return `I will use ${name} for the next step.`;
}

/** The policy's reply written as text ReAct; without a stop sequence the model writes on into an observation. */
export function writeTextReply(reply: SimReply, trial: number): string {
  const style = deviationOf(trial);
  const label = (name: string) => (style === 'extra-spaces' ? `${name} :  ` : `${name}: `);
  const thought = (text: string) => (style === 'no-thought-label' ? text : `${label('Thought')}${text}`);
  if (reply.kind === 'text') return `${thought('I now know the final answer.')}\n${label('Final Answer')}${reply.text}`;
  const blocks = reply.calls.map((call, i) => {
    const input = style === 'fenced-input' ? `\n\`\`\`json\n${call.arguments}\n\`\`\`` : call.arguments;
    const note = i === 0 && reply.text ? reply.text : thoughtFor(call.name, call.arguments);
    return `${thought(note)}\n${label('Action')}${call.name}\n${label('Action Input')}${input}`;
  });
  const sep = style === 'extra-spaces' ? '\n\n\n' : '\n\n';
  return `${blocks.join(sep)}\nObservation: ${reply.calls.length > 1 ? 'the results, as I expect them' : 'the result, as I expect it'}.`;
}

/** A reply cut before the first stop sequence, as an OpenAI-compatible server does (the stop text itself is not sent). */
export function cutAtStop(text: string, stop: readonly string[]): string {
  let end = text.length;
  for (const s of stop) {
    const at = s === '' ? -1 : text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}
