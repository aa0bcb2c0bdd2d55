/**
 * The simulated model's answer to a `history: summarize:K` summary request (engine/history-summarizer.ts): one
 * line per tool call in the transcript, with its result kept word for word when it is short and named only
 * (its size) when long, as a summariser keeps facts and drops bulk; lines of an earlier summary are carried
 * over. The conversation reader (conversation.ts) reads these lines back, so a policy has the short results
 * and asks again for the long ones, the way a real model re-reads what its summary left out.
 */
import { SUMMARY_LEAD, SUMMARY_SYSTEM } from '../../engine/history-summarizer.js';
import { textOf, type WireMessage } from '../types.js';

/** Results up to this many characters are kept in the summary whole. */
export const KEPT_RESULT_CHARS = 400;
const LINE = /^- ([\w.-]+) (\{.*?\}) → (".*"|\(.*\))$/;

export function isSummaryRequest(messages: readonly WireMessage[]): boolean {
  const system = messages.find((m) => m.role === 'system');
  return system !== undefined && textOf(system.content).startsWith(SUMMARY_SYSTEM.slice(0, 40));
}

/** The summary text for a transcript (the summary request's user message). */
export function summaryText(transcript: string): string {
  const lines = transcript.split('\n');
  const out: string[] = lines.filter((l) => LINE.test(l));
  const steps = Number(/^steps: (\d+)$/m.exec(transcript)?.[1] ?? 0);
  const called: { id: string | null; name: string; args: string }[] = [];
  let turns = 0;
  for (const l of lines) {
    if (l.startsWith('assistant: ')) {
      turns++;
      for (const m of l.matchAll(/called ([\w.-]+) (\{.*?\})(?=; called |$)/g))
        called.push({ id: null, name: m[1]!, args: m[2]! });
    }
    const r = /^result of (\S+): ([\s\S]*)$/.exec(l);
    if (r) {
      const c = called.find((x) => x.id === null);
      if (!c) continue;
      c.id = r[1]!;
      // A multi-line result goes on until the next transcript line; take it whole.
      const rest = lines.slice(lines.indexOf(l) + 1);
      const end = rest.findIndex((x) => /^(assistant|result of \S+|user|system): /.test(x));
      const text = [r[2]!, ...rest.slice(0, end < 0 ? rest.length : end)].join('\n');
      out.push(
        `- ${c.name} ${c.args} → ${text.length <= KEPT_RESULT_CHARS ? JSON.stringify(text) : `(${text.length} characters, not kept)`}`,
      );
    }
  }
  return [`steps: ${steps + turns}`, ...out].join('\n');
}

export interface SummarisedCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The result as the summary kept it; null when the summary only named it. */
  readonly result: string | null;
}

/** What a summary message (SUMMARY_LEAD) holds: the steps it stands for and the calls it names. */
export function readSummary(message: WireMessage): { steps: number; calls: SummarisedCall[] } | null {
  const text = textOf(message.content);
  if (message.role !== 'user' || !text.startsWith(SUMMARY_LEAD)) return null;
  const calls: SummarisedCall[] = [];
  for (const l of text.split('\n')) {
    const m = LINE.exec(l);
    if (!m) continue;
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(m[2]!) as Record<string, unknown>;
    } catch {
      /* a hostile or garbled line names no arguments */
    }
    let result: string | null = null;
    if (m[3]!.startsWith('"'))
      try {
        result = JSON.parse(m[3]!) as string;
      } catch {
        result = null;
      }
    calls.push({ name: m[1]!, args, result });
  }
  return { steps: Number(/^steps: (\d+)$/m.exec(text)?.[1] ?? 0), calls };
}
