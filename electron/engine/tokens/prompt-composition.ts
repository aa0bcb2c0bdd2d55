/**
 * Prompt composition per step (shared/prompt-composition.ts), reconstructed from a run's events in order: the
 * events hold every string the requests carried (run-started: system prompt, task, tools; model-request:
 * tools added later; model-response: the assistant's turn as it goes back; tool-finished: each tool message's
 * content as sent). Each string is counted once, with the same formula as the simulated model's usage
 * (count-tokens.ts), so on the simulated model `other` is exactly the reply priming, and on a real provider it
 * is the part of its template the request text does not hold.
 */
import { fitComposition, type PromptComposition } from '../../../shared/prompt-composition.js';
import type { StepEvent, ToolExposure } from '../../../shared/step-event.js';
import { PER_MESSAGE, PER_TOOL_CALL, tok } from './count-tokens.js';

const message = (role: string, text: string) => PER_MESSAGE + tok(role) + tok(text);

export class CompositionTracker {
  private system = 0;
  private task = 0;
  private assistant = 0;
  private toolResults = 0;
  private tools = 0;
  private offeredKey = '';
  private readonly exposures = new Map<string, ToolExposure>();

  /** Feed every event of one run in order; a model-response with usage comes back with its composition. */
  observe(event: StepEvent): StepEvent {
    switch (event.type) {
      case 'run-started':
        this.system = message('system', event.systemPrompt);
        this.task = message('user', event.task.text);
        for (const t of event.tools) this.exposures.set(t.name, t);
        this.offer(event.tools.map((t) => t.name));
        return event;
      case 'model-request':
        for (const t of event.addedTools ?? []) this.exposures.set(t.name, t);
        this.offer(event.toolNames);
        return event;
      case 'model-response': {
        const composition = event.usage ? this.fit(event.usage.prompt) : null;
        // The reply goes back into the history for the next request.
        let turn = message('assistant', event.text) + (event.reasoningText ? tok(event.reasoningText) : 0);
        for (const call of event.toolCalls) turn += PER_TOOL_CALL + tok(call.name) + tok(call.arguments);
        this.assistant += turn;
        return composition ? { ...event, promptComposition: composition } : event;
      }
      case 'tool-finished':
        this.toolResults += message('tool', event.output) + tok(event.callId);
        return event;
      default:
        return event;
    }
  }

  private offer(names: readonly string[]): void {
    const key = names.join('\n');
    if (key === this.offeredKey) return;
    this.offeredKey = key;
    const wire = names.flatMap((name) => {
      const t = this.exposures.get(name);
      return t ? [{ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }] : [];
    });
    this.tools = wire.length ? tok(JSON.stringify(wire)) : 0;
  }

  private fit(reported: number): PromptComposition {
    return fitComposition({ system: this.system, tools: this.tools, task: this.task, assistant: this.assistant, toolResults: this.toolResults }, reported);
  }
}
