/**
 * MCP elicitation: a server asks the person for values while one of its tools runs (elicitation/create).
 * Answered by whoever the run can ask (the terminal's prompt; `ask` absent: declined, saying nobody can
 * answer), only during one of that server's calls, at most MAX_ELICITATIONS_PER_RUN times, with its schema
 * read into bounded fields (shared/mcp-elicitation.ts) and the answer checked again here whatever surface sent
 * it. A wait longer than ELICIT_WAIT_MS is cancelled. Each request is recorded as an `elicitation` event.
 */
import {
  checkElicitContent,
  elicitFields,
  elicitMessage,
  type ElicitAction,
  type ElicitField,
  type ElicitValue,
} from '../../../shared/mcp-elicitation.js';
import type { StepEventInput } from '../../../shared/step-event.js';
import type { ToolReporter } from '../tools/tool.js';

export const MAX_ELICITATIONS_PER_RUN = 5;
/** A person has this long to answer; then the request is cancelled and the call goes on. */
export const ELICIT_WAIT_MS = 5 * 60_000;

export interface ElicitRequest {
  /** Names the elicitation-requested event; the answer of a host's card names it back. */
  readonly elicitationId: string;
  readonly server: string;
  readonly message: string;
  readonly fields: readonly ElicitField[];
}

export interface ElicitAnswer {
  readonly action: ElicitAction;
  readonly content?: Readonly<Record<string, unknown>>;
}

/** Asks the person; resolves when they answer (the signal ends a wait nobody answered). */
export type AskElicitation = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitAnswer>;

export interface ElicitResult {
  readonly action: ElicitAction;
  readonly content?: Record<string, ElicitValue>;
}

export type Elicitor = (
  server: string,
  params: unknown,
  call: ToolReporter | null,
  signal: AbortSignal,
) => Promise<ElicitResult>;

export function createElicitor(opts: {
  readonly ask: AskElicitation | null;
  readonly signal: AbortSignal;
  emit(event: StepEventInput): void;
  readonly waitMs?: number;
}): Elicitor {
  let asked = 0;
  return async (server, params, call, requestSignal) => {
    const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
    const message = elicitMessage(p.message);
    const read =
      p.mode === 'url'
        ? { ok: false as const, error: 'Parallax answers only form requests, not URL ones' }
        : elicitFields(p.requestedSchema);
    const fields = read.ok ? read.fields : [];
    // Only a form someone is asked gets an id (its elicitation-requested event names it).
    const elicitationId = call && read.ok && asked < MAX_ELICITATIONS_PER_RUN && opts.ask ? `e${asked + 1}` : undefined;
    const record = (
      action: ElicitAction,
      waitedMs: number,
      extra: { content?: Record<string, ElicitValue>; reason?: string } = {},
    ): ElicitResult => {
      if (call)
        opts.emit({
          type: 'elicitation',
          step: call.step,
          callId: call.callId,
          server,
          message,
          fields,
          action,
          ...extra,
          waitedMs,
          ...(elicitationId ? { elicitationId } : {}),
        });
      return { action, ...(extra.content ? { content: extra.content } : {}) };
    };
    if (!call) return record('decline', 0, { reason: `asked outside one of "${server}"'s calls` });
    if (!read.ok) return record('decline', 0, { reason: read.error });
    if (asked >= MAX_ELICITATIONS_PER_RUN)
      return record('decline', 0, {
        reason: `this run already asked ${MAX_ELICITATIONS_PER_RUN} times, the most one run asks`,
      });
    if (!opts.ask) return record('decline', 0, { reason: 'nobody can answer in this run' });
    asked += 1;
    const timeoutMs = opts.waitMs ?? ELICIT_WAIT_MS;
    // Announced before the ask, so a host's page can show the form (the `elicitation` event closes it).
    opts.emit({
      type: 'elicitation-requested',
      step: call.step,
      callId: call.callId,
      elicitationId: elicitationId!,
      server,
      message,
      fields,
      timeoutMs,
    });
    const wait = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([opts.signal, requestSignal, wait]);
    const started = performance.now();
    const waited = (): number => Math.round(performance.now() - started);
    let answer: ElicitAnswer;
    try {
      answer = await new Promise<ElicitAnswer>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        opts.ask!({ elicitationId: elicitationId!, server, message, fields }, signal)
          .then(resolve, reject)
          .finally(() => signal.removeEventListener('abort', onAbort));
      });
    } catch {
      return record('cancel', waited(), {
        reason: wait.aborted
          ? `nobody answered within ${Math.round(timeoutMs / 1000)} s`
          : 'the run or the call ended first',
      });
    }
    if (answer.action !== 'accept') return record(answer.action === 'decline' ? 'decline' : 'cancel', waited());
    const checked = checkElicitContent(fields, answer.content ?? {});
    if (!checked.ok)
      return record('cancel', waited(), { reason: `the answer did not fit the form: ${checked.errors.join('; ')}` });
    return record('accept', waited(), { content: checked.content });
  };
}
