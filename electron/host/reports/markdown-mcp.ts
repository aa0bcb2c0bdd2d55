/**
 * A run's MCP notes in the Markdown report, in the words of the app's timeline (shared/mcp-call-words.ts): one
 * list item per call that had any (its server's hints, its last progress, its sampling requests, its annotated
 * result parts), and the sentence that says what sampling spent beyond the step rows. Nothing without MCP.
 */
import {
  mcpContentText,
  mcpElicitationText,
  mcpHintsText,
  mcpProgressText,
  mcpSamplingText,
  samplingTotals,
  samplingTotalsText,
} from '../../../shared/mcp-call-words.js';
import type { McpToolRecord } from '../../../shared/mcp-tools.js';
import type { StepEvent, ToolProgressEvent } from '../../../shared/step-event.js';
import { mdText } from './markdown-table.js';

interface Call {
  readonly step: number;
  readonly name: string;
  hints: string | null;
  progress: ToolProgressEvent | null;
  /** Sampling requests and elicitations, in order. */
  readonly samplings: string[];
  content: string | null;
  done: boolean;
}

export function mcpList(events: readonly StepEvent[], toolName: (name: string) => string): string[] {
  const tools = new Map<string, McpToolRecord>();
  const calls = new Map<string, Call>();
  const names = new Map<string, string>();
  const callOf = (callId: string, step: number, name: string): Call => {
    let c = calls.get(callId);
    if (!c)
      calls.set(callId, (c = { step, name, hints: null, progress: null, samplings: [], content: null, done: false }));
    return c;
  };
  for (const e of events) {
    if (e.type === 'run-started') for (const t of e.mcpTools ?? []) tools.set(t.name, t);
    if (e.type === 'tool-started') names.set(e.callId, e.name);
    if (e.type === 'tool-started' && tools.has(e.name))
      callOf(e.callId, e.step, e.name).hints = mcpHintsText(tools.get(e.name)!);
    if (e.type === 'tool-progress') callOf(e.callId, e.step, e.inProgram ? 'run_code' : e.name).progress = e;
    if (e.type === 'sampling')
      callOf(e.callId, e.step, names.get(e.callId) ?? e.server).samplings.push(mcpSamplingText(e));
    if (e.type === 'elicitation')
      callOf(e.callId, e.step, names.get(e.callId) ?? e.server).samplings.push(mcpElicitationText(e));
    if (e.type === 'tool-finished') {
      const content = mcpContentText(e.mcpContent);
      const c = content !== null ? callOf(e.callId, e.step, e.name) : calls.get(e.callId);
      if (c) Object.assign(c, { done: true, content });
    }
  }
  if (calls.size === 0) return [];
  const lines = [...calls.values()].map((c) => {
    const notes = [c.hints, c.progress ? mcpProgressText(c.progress, c.done) : null, ...c.samplings, c.content].filter(
      (n) => n !== null,
    );
    return `- Step ${c.step}: ${toolName(c.name)}: ${notes.map(mdText).join('. ')}`;
  });
  const t = samplingTotals(events);
  return ['**MCP**', '', ...lines, '', ...(t ? [mdText(samplingTotalsText(t)), ''] : [])];
}
