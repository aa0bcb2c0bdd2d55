/**
 * Assembles streamed tool-call fragments into whole calls, the way each provider actually sends them:
 * - OpenAI: keyed by `index`; id and name once, in the first fragment; arguments split anywhere.
 * - Gemini's OpenAI endpoint: no `index`; each call usually whole, sometimes its arguments continued in
 *   fragments with neither id nor index, and its thought signature in a later metadata-only fragment.
 * - Ollama: `index` 0 reused for every call of a parallel batch, each call with its own id.
 * - MiniMax via NVIDIA NIM: the name repeated whole in every fragment; Gemini via some gateways: the name split.
 * - Legacy `delta.function_call` (one call per reply).
 * - LiteLLM over OCI: every fragment of one call under a new id, with an empty name, on the same index.
 * - Hugging Face TGI: the call as one object instead of a list (stream-accumulator.ts), id "0".
 * So a fragment belongs to the call with its id when it has one, else to the latest call with its index, else
 * to the latest call; a fragment with an unseen id, or with arguments after the matched call's arguments
 * already form a complete JSON value, starts a new call — except a nameless fragment on the index of a call
 * whose JSON is still open (or one that carries no arguments at all): a gateway's fresh id on a fragment. Unknown fields of a call (e.g. Gemini's
 * `extra_content`) are kept verbatim for the round trip.
 */
import type { ToolCallRequest } from '../../../shared/step-event.js';
import { JsonCompleteness } from './json-completeness.js';
import { mergeValue } from './merge.js';
import { MAX_CALLS_PER_REPLY, tooManyCalls } from './reply-limits.js';

export interface ToolCallFragment {
  readonly index?: unknown;
  readonly id?: unknown;
  readonly type?: unknown;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown; readonly [k: string]: unknown } | null;
  readonly [k: string]: unknown;
}

interface Call {
  id: string;
  index: number | undefined;
  type: string;
  name: string;
  args: string;
  readonly json: JsonCompleteness;
  /** Fields of the call other than index/id/type/function, and of `function` other than name/arguments. */
  extra: Record<string, unknown>;
  fnExtra: Record<string, unknown>;
}

/** A call ready for the history: the recorded request plus every field the provider sent with it. */
export interface AssembledCall extends ToolCallRequest {
  // ToolCallRequest.cut: set by the accumulator when the reply ended at its token limit inside this call.
  readonly type: string;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly functionExtra: Readonly<Record<string, unknown>>;
}

const CALL_KEYS = new Set(['index', 'id', 'type', 'function']);
const FN_KEYS = new Set(['name', 'arguments']);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export class ToolCallAssembler {
  private readonly calls: Call[] = [];
  private legacy: Call | null = null;

  /** @param toolNames the tools offered, to tell a split name ("read" + "_file") from a repeated one. */
  constructor(private readonly toolNames: ReadonlySet<string> = new Set()) {}

  get size(): number {
    return this.calls.length + (this.legacy ? 1 : 0);
  }

  /** True when the reply used the legacy `function_call` field instead of `tool_calls`. */
  get isLegacy(): boolean {
    return this.legacy !== null;
  }

  push(f: ToolCallFragment): void {
    const id = str(f.id);
    const index = typeof f.index === 'number' ? f.index : undefined;
    const name = str(f.function?.name);
    const args = argumentsOf(f.function?.arguments);
    let call = this.find(id, index);
    const relabelled = !call && id !== undefined && name === undefined ? this.relabelled(index, args) : undefined;
    if (relabelled) {
      // A fragment of the open call under a gateway's new id: the call keeps the id it started with.
      if (args) {
        relabelled.args += args;
        relabelled.json.feed(args);
      }
      this.mergeExtras(relabelled, f);
      return;
    }
    if (call && this.startsNewCall(call, id, args)) {
      // A complete call sent again unchanged (same name and arguments) is a repeat, not a second call.
      if (args !== undefined && args === call.args && (name === undefined || name === call.name)) {
        this.mergeExtras(call, f);
        return;
      }
      call = undefined;
    }
    const previous = this.calls[this.calls.length - 1];
    if (!call) {
      // Past the bound a reply is refused whole (reply-limits.ts): each lookup here walks the calls so far.
      if (this.calls.length >= MAX_CALLS_PER_REPLY) throw tooManyCalls();
      call = {
        id: id ?? '',
        index,
        type: 'function',
        name: '',
        args: '',
        json: new JsonCompleteness(),
        extra: {},
        fnExtra: {},
      };
      // A call split off by its arguments alone keeps the name of the call it was split from.
      if (name === undefined && args !== undefined && previous && (index === undefined || previous.index === index))
        call.name = previous.name;
      this.calls.push(call);
    }
    if (id && !call.id) call.id = id;
    if (index !== undefined && call.index === undefined) call.index = index;
    const type = str(f.type);
    if (type) call.type = type;
    if (name !== undefined) call.name = this.mergeName(call, name);
    if (args !== undefined) {
      call.args += args;
      call.json.feed(args);
    }
    this.mergeExtras(call, f);
  }

  /** A legacy `delta.function_call` fragment: the reply's one call. */
  pushLegacy(fc: { readonly name?: unknown; readonly arguments?: unknown; readonly [k: string]: unknown }): void {
    if (!this.legacy) {
      this.legacy = {
        id: '',
        index: undefined,
        type: 'function',
        name: '',
        args: '',
        json: new JsonCompleteness(),
        extra: {},
        fnExtra: {},
      };
    }
    const name = str(fc.name);
    if (name !== undefined) this.legacy.name = this.mergeName(this.legacy, name);
    const args = argumentsOf(fc.arguments);
    if (args !== undefined) {
      this.legacy.args += args;
      this.legacy.json.feed(args);
    }
    for (const [k, v] of Object.entries(fc))
      if (!FN_KEYS.has(k)) this.legacy.fnExtra[k] = mergeValue(this.legacy.fnExtra[k], v, false);
  }

  result(): AssembledCall[] {
    const calls = this.legacy ? [...this.calls, this.legacy] : this.calls;
    const used = new Set(calls.map((c) => c.id).filter(Boolean));
    let n = 0;
    const fresh = () => {
      let id: string;
      do id = `call_${n++}`;
      while (used.has(id));
      used.add(id);
      return id;
    };
    return calls.map((c) => ({
      id: c.id || fresh(),
      name: c.name,
      arguments: c.args,
      type: c.type,
      extra: c.extra,
      functionExtra: c.fnExtra,
    }));
  }

  /** Positions (in result()) of calls whose arguments are an unfinished JSON value (a reply cut short mid-call). */
  openCalls(): Set<number> {
    const all = this.legacy ? [...this.calls, this.legacy] : this.calls;
    const open = new Set<number>();
    all.forEach((c, i) => {
      const text = c.args.trim();
      if (text !== '' && !c.json.complete && !jsonParses(text)) open.add(i);
    });
    return open;
  }

  /**
   * The call a nameless fragment with an unseen id continues: the latest call on its index (or the latest call,
   * without an index) whose arguments are still an open JSON value, or any such call when the fragment carries
   * no arguments. Undefined when the fragment rather starts a call.
   */
  private relabelled(index: number | undefined, args: string | undefined): Call | undefined {
    const call = this.calls[this.calls.length - 1];
    if (!call || !call.id || (index !== undefined && call.index !== undefined && call.index !== index))
      return undefined;
    if (args === undefined || args.trim() === '') return call;
    return call.json.complete ? undefined : call;
  }

  private find(id: string | undefined, index: number | undefined): Call | undefined {
    const last = <T>(xs: T[], p: (x: T) => boolean) => {
      for (let i = xs.length - 1; i >= 0; i--) if (p(xs[i])) return xs[i];
      return undefined;
    };
    const calls = this.calls;
    if (id) {
      const byId = last(calls, (c) => c.id === id);
      if (byId) return byId;
      // An id that arrives after the call began (first fragment without one) still names that call.
      return last(calls, (c) => !c.id && (index === undefined || c.index === index) && !c.json.complete);
    }
    if (index !== undefined)
      return (
        last(calls, (c) => c.index === index) ??
        (calls.length && calls.every((c) => c.index === undefined) ? calls[calls.length - 1] : undefined)
      );
    return calls[calls.length - 1];
  }

  /** Whether a fragment (its id and arguments), matched to `call`, actually starts another call. */
  private startsNewCall(call: Call, id: string | undefined, args: string | undefined): boolean {
    if (id && call.id && id !== call.id) return true;
    // Whitespace after a complete value (some models end arguments with a newline) belongs to the same call.
    return args !== undefined && args.trim() !== '' && call.json.complete;
  }

  private mergeName(call: Call, name: string): string {
    if (!call.name) return name;
    const joined = call.name + name;
    if (name === call.name) return this.toolNames.has(joined) && !this.toolNames.has(call.name) ? joined : call.name;
    if (call.name.endsWith(name) && this.toolNames.has(call.name)) return call.name;
    return joined;
  }

  private mergeExtras(call: Call, f: ToolCallFragment): void {
    for (const [k, v] of Object.entries(f)) if (!CALL_KEYS.has(k)) call.extra[k] = mergeValue(call.extra[k], v, false);
    for (const [k, v] of Object.entries(f.function ?? {}))
      if (!FN_KEYS.has(k)) call.fnExtra[k] = mergeValue(call.fnExtra[k], v, false);
  }
}

function jsonParses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Arguments as a string; some servers (Ollama via gateways) send them as an object. */
function argumentsOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') return JSON.stringify(v);
  return undefined;
}
