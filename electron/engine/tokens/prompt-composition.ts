/**
 * Prompt composition per step (shared/prompt-composition.ts), reconstructed from a run's events in order: the
 * events hold every string the requests carried (run-started: system prompt, task, tools; model-request:
 * tools added later; model-response: the assistant's turn as it goes back; tool-finished: each tool message's
 * content as sent). Each string is counted once, with the same formula as the simulated model's usage
 * (count-tokens.ts), so on the simulated model `other` is exactly the reply priming, and on a real provider it
 * is the part of its template the request text does not hold.
 *
 * A text ReAct run (its mode's tools are in the prompt) sends no tools parameter: the tool list inside the
 * system prompt counts as `tools` (the system message counted with and without it, so the two parts sum to the
 * message exactly), each reply goes back cut where the parser cut it, and each observation message counts as
 * `toolResults`, rebuilt from the step's parse and its tools' outputs with the loop's own function.
 */
import { fitComposition, type PromptComposition } from '../../../shared/prompt-composition.js';
import { describeMode } from '../../../shared/modes.js';
import type { ParsedReply, StepEvent, ToolExposure } from '../../../shared/step-event.js';
import { observationMessage, toolListText } from '../modes/text/text-prompt.js';
import { PER_MESSAGE, PER_TOOL_CALL, tok } from './count-tokens.js';

const message = (role: string, text: string) => PER_MESSAGE + tok(role) + tok(text);

export class CompositionTracker {
  private system = 0;
  private task = 0;
  private assistant = 0;
  private toolResults = 0;
  private tools = 0;
  private offeredKey = '';
  private toolsInPrompt = false;
  /** Text ReAct: the reply whose observation is not counted yet, and its tools' outputs by call id. */
  private pending: {
    step: number;
    parsed: ParsedReply;
    callIds: string[];
    names: string[];
    outputs: Map<string, string>;
  } | null = null;
  private readonly exposures = new Map<string, ToolExposure>();
  /** Each native tool message's counted tokens by call id, and each text observation by its calls' ids. */
  private readonly resultTokens = new Map<string, number>();
  private readonly observations = new Map<
    string,
    { parsed: ParsedReply; callIds: string[]; names: string[]; outputs: Map<string, string>; tokens: number }
  >();
  /** What the history knob cleared so far: results and the tokens each request no longer re-sends. */
  private clearedResults = 0;
  private clearedTokens = 0;
  /** Each step's own tokens in the history (its mode's messages, its reply, its results), for a summary to take out. */
  private readonly byStep = new Map<number, { system: number; assistant: number; toolResults: number }>();
  /** The summary message in force (counted as the model's own earlier replies) and what it stands for. */
  private summary: { fromStep: number; toStep: number; replacedTokens: number; tokens: number } | null = null;

  /** Feed every event of one run in order; a model-response with usage comes back with its composition. */
  observe(event: StepEvent): StepEvent {
    switch (event.type) {
      case 'run-started':
        this.system = message('system', event.systemPrompt);
        this.task = message('user', event.task.text);
        for (const t of event.tools) this.exposures.set(t.name, t);
        this.toolsInPrompt = describeMode(event.mode)?.toolsInPrompt === true;
        if (this.toolsInPrompt) this.splitSystem(event.systemPrompt, event.tools);
        else this.offer(event.tools.map((t) => t.name));
        return event;
      case 'model-request':
        for (const t of event.addedTools ?? []) this.exposures.set(t.name, t);
        // Messages a mode added before the request (its prepareStep hook) are its instructions, read from the record.
        for (const m of event.addedMessages ?? []) this.add(event.step, 'system', message(m.role, m.content));
        if (!this.toolsInPrompt) this.offer(event.toolNames);
        for (const c of event.clearedResults ?? []) this.clear(c.callId, c.text);
        return event;
      case 'model-response': {
        this.countObservation();
        const fitted = event.usage ? this.fit(event.usage.prompt) : null;
        const composition = fitted ? this.annotate(fitted) : null;
        if (event.parsed) {
          // Text ReAct: the text up to the parser's cut goes back; the actions are in that text.
          this.add(event.step, 'assistant', message('assistant', event.text.slice(0, event.parsed.kept)));
          this.pending = {
            step: event.step,
            parsed: event.parsed,
            callIds: event.toolCalls.map((c) => c.id),
            names: event.toolCalls.map((c) => c.name),
            outputs: new Map(),
          };
          return composition ? { ...event, promptComposition: composition } : event;
        }
        // The reply goes back into the history for the next request.
        let turn = message('assistant', event.text) + (event.reasoningText ? tok(event.reasoningText) : 0);
        for (const call of event.toolCalls) turn += PER_TOOL_CALL + tok(call.name) + tok(call.arguments);
        this.add(event.step, 'assistant', turn);
        return composition ? { ...event, promptComposition: composition } : event;
      }
      case 'tool-finished':
        if (this.pending) this.pending.outputs.set(event.callId, event.output);
        else {
          const n = message('tool', event.output) + tok(event.callId);
          this.resultTokens.set(event.callId, n);
          this.add(event.step, 'toolResults', n);
        }
        return event;
      case 'history-summary':
        if (event.error === null) this.summarise(event.fromStep, event.toStep, event.text);
        return event;
      case 'approval-requested':
      case 'approval-resolved':
      case 'code-run':
      case 'elicitation-requested':
      case 'elicitation':
      case 'model-retry':
      case 'run-finished':
      case 'run-warning':
      case 'sampling':
      case 'tool-progress':
      case 'tool-search':
      case 'tool-started':
      default:
        return event;
    }
  }

  /** The observation answering the last text ReAct reply, counted once its tools have all finished. */
  private countObservation(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const tokens = this.observationTokens(p);
    const observation = { ...p, tokens };
    for (const id of p.callIds) this.observations.set(id, observation);
    this.add(p.step, 'toolResults', tokens);
  }

  private add(step: number, part: 'system' | 'assistant' | 'toolResults', tokens: number): void {
    this[part] += tokens;
    const own = this.byStep.get(step) ?? { system: 0, assistant: 0, toolResults: 0 };
    own[part] += tokens;
    this.byStep.set(step, own);
  }

  /**
   * Steps up to `toStep` (and any earlier summary) now go as one message holding `text`: their tokens leave
   * their parts, and the summary counts as the model's own earlier replies (it wrote it).
   */
  private summarise(fromStep: number, toStep: number, text: string): void {
    const prior = this.summary;
    this.assistant -= prior?.tokens ?? 0;
    let steps = 0;
    for (const [step, own] of this.byStep) {
      if (step > toStep) continue;
      this.system -= own.system;
      this.assistant -= own.assistant;
      this.toolResults -= own.toolResults;
      steps += own.system + own.assistant + own.toolResults;
      this.byStep.delete(step);
    }
    const tokens = message('user', text);
    this.assistant += tokens;
    // What the summary stands for: every step it covers, as those steps were sent before any summary.
    this.summary = {
      fromStep: Math.min(fromStep, prior?.fromStep ?? fromStep),
      toStep,
      replacedTokens: (prior?.replacedTokens ?? 0) + steps,
      tokens,
    };
  }

  /** The composition with what the history knob kept out of it (not parts: the parts sum to the prompt as sent). */
  private annotate(fitted: PromptComposition): PromptComposition {
    return {
      ...fitted,
      ...(this.clearedResults ? { cleared: { results: this.clearedResults, tokens: this.clearedTokens } } : {}),
      ...(this.summary ? { summarized: { ...this.summary } } : {}),
    };
  }

  private observationTokens(p: {
    parsed: ParsedReply;
    callIds: string[];
    names: string[];
    outputs: Map<string, string>;
  }): number {
    const outputs = p.callIds.map((id) => p.outputs.get(id) ?? '');
    return message(
      'user',
      observationMessage({ parsed: p.parsed, actions: p.names.map((name) => ({ name })) }, outputs),
    );
  }

  /** A result the history knob replaced by its placeholder: sent as that from this request on. */
  private clear(callId: string, text: string): void {
    const before = this.toolResults;
    const native = this.resultTokens.get(callId);
    if (native !== undefined) {
      const n = message('tool', text) + tok(callId);
      this.resultTokens.set(callId, n);
      this.toolResults += n - native;
    } else {
      const o = this.observations.get(callId);
      if (!o) return;
      o.outputs.set(callId, text);
      const tokens = this.observationTokens(o);
      this.toolResults += tokens - o.tokens;
      o.tokens = tokens;
    }
    this.clearedResults++;
    this.clearedTokens += before - this.toolResults;
  }

  /** The system prompt of a text ReAct run: its tool list counts as tools, the rest as the system prompt. */
  private splitSystem(prompt: string, tools: readonly ToolExposure[]): void {
    const list = tools.length ? toolListText(tools) : '';
    const at = list ? prompt.indexOf(list) : -1;
    if (at < 0) return;
    const whole = this.system;
    this.system = message('system', prompt.slice(0, at) + prompt.slice(at + list.length));
    this.tools = whole - this.system;
  }

  private offer(names: readonly string[]): void {
    const key = names.join('\n');
    if (key === this.offeredKey) return;
    this.offeredKey = key;
    const wire = names.flatMap((name) => {
      const t = this.exposures.get(name);
      return t
        ? [{ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }]
        : [];
    });
    this.tools = wire.length ? tok(JSON.stringify(wire)) : 0;
  }

  private fit(reported: number): PromptComposition {
    return fitComposition(
      {
        system: this.system,
        tools: this.tools,
        task: this.task,
        assistant: this.assistant,
        toolResults: this.toolResults,
      },
      reported,
    );
  }
}
