/**
 * A reply's content as providers send it besides a plain string, read into what is shown (the answer), what is
 * reasoning, and what goes back verbatim:
 * - content parts (Mistral's Magistral and reasoning models): `{type: 'thinking', thinking: [{type: 'text', text}]}`
 *   and `{type: 'text', text}` in `delta.content` lists, mixed with plain string deltas. Fragments of the same kind
 *   join into one part, so the turn goes back as one thinking part and one text part, in the order they came.
 * - `<think>…</think>` inside the text (MiniMax M2, and DeepSeek R1 or Qwen3 served without a reasoning parser,
 *   whose template opens the block so only `</think>` appears): the blocks are reasoning, the rest is the answer,
 *   and the text goes back exactly as sent (MiniMax's docs: the think content must be kept whole in the history).
 */
import { mergeValue } from './merge.js';

type Part = Record<string, unknown> & { type?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a thinking part's `thinking`: a string, or the joined `text` of its list. */
function thinkingText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.map((t) => (isObject(t) && typeof t.text === 'string' ? t.text : typeof t === 'string' ? t : '')).join('');
}

/** Content parts folded across a stream: text and thinking fragments join; other parts are kept as sent. */
export class ContentParts {
  private readonly parts: Part[] = [];
  private sawList = false;
  text = '';
  thinking = '';

  /** Content arrived as a list at least once: it goes back as a list. */
  get used(): boolean {
    return this.sawList;
  }

  /** Text that arrived as a plain string (before or between the parts). */
  pushText(s: string): void {
    if (s === '') return;
    this.text += s;
    const last = this.parts.at(-1);
    if (last?.type === 'text' && typeof last.text === 'string') last.text += s;
    else this.parts.push({ type: 'text', text: s });
  }

  /** A list of parts from one delta (or a whole message). */
  pushParts(list: readonly unknown[]): void {
    this.sawList = true;
    for (const p of list) {
      if (typeof p === 'string') this.pushText(p);
      else if (!isObject(p)) continue;
      else if (p.type === 'text' && typeof p.text === 'string') this.pushText(p.text);
      else if (p.type === 'thinking') this.pushThinking(p);
      else this.parts.push({ ...p });
    }
  }

  private pushThinking(p: Record<string, unknown>): void {
    const piece = thinkingText(p.thinking);
    this.thinking += piece;
    const last = this.parts.at(-1);
    const { thinking: _t, ...rest } = p;
    if (last?.type === 'thinking') {
      const prev = thinkingText(last.thinking);
      Object.assign(last, mergeValue(last, rest, false), { thinking: [{ type: 'text', text: prev + piece }] });
    } else this.parts.push({ ...rest, type: 'thinking', thinking: [{ type: 'text', text: piece }] });
  }

  /** The parts as they go back; empty text parts left out. */
  list(): Part[] {
    return this.parts.filter((p) => !(p.type === 'text' && p.text === '')).map((p) => ({ ...p }));
  }
}

export interface SplitText {
  /** The answer: the text without its thinking blocks. */
  readonly shown: string;
  /** What the blocks held, joined. */
  readonly reasoning: string;
  /** The blocks as they were written, tags included (what a text mode sends back before its kept text). */
  readonly tagged: string;
}

const OPEN = /<think>/i;
const CLOSE = /<\/think>/i;

/** `<think>…</think>` blocks out of `text`; a text without them comes back as it is. */
export function splitThinkTags(text: string): SplitText {
  if (!CLOSE.test(text) && !OPEN.test(text)) return { shown: text, reasoning: '', tagged: '' };
  let rest = text;
  let shown = '';
  const inner: string[] = [];
  let tagged = '';
  // A template that opens the block itself leaves only its end in the reply: everything before it was thought.
  const firstClose = rest.search(CLOSE);
  const firstOpen = rest.search(OPEN);
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
    const end = firstClose + rest.slice(firstClose).match(CLOSE)![0].length;
    inner.push(rest.slice(0, firstClose));
    tagged += rest.slice(0, end);
    rest = rest.slice(end);
  }
  for (;;) {
    const open = rest.search(OPEN);
    if (open === -1) break;
    shown += rest.slice(0, open);
    const afterOpen = open + rest.slice(open).match(OPEN)![0].length;
    const close = rest.slice(afterOpen).search(CLOSE);
    if (close === -1) {
      // Cut off while thinking (a token limit): all of it is reasoning, nothing of it an answer.
      inner.push(rest.slice(afterOpen));
      tagged += rest.slice(open);
      rest = '';
      break;
    }
    const end = afterOpen + close + rest.slice(afterOpen + close).match(CLOSE)![0].length;
    inner.push(rest.slice(afterOpen, afterOpen + close));
    tagged += rest.slice(open, end);
    rest = rest.slice(end);
  }
  shown += rest;
  // The whitespace that separated the blocks from the answer belongs to neither.
  const lead = /^\s*/.exec(shown)![0];
  return {
    shown: shown.slice(lead.length),
    reasoning: inner
      .map((s) => s.trim())
      .filter(Boolean)
      .join('\n\n'),
    tagged: tagged + lead,
  };
}

/**
 * The content a text mode sends back for `kept`, the part of the shown text it keeps: the parts with their text
 * replaced by `kept`, or the thinking blocks as written followed by `kept`.
 */
export function resendContent(content: unknown, tagged: string, kept: string): unknown {
  if (Array.isArray(content)) {
    const others = (content as Part[]).filter((p) => p.type !== 'text');
    return kept ? [...others, { type: 'text', text: kept }] : others;
  }
  return tagged + kept;
}
