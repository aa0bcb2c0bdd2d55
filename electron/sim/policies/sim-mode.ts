/**
 * One mode on the simulated model: how a request shows it is that mode (its detector, from what the request
 * offers) and whose task policies it follows (each task may name its own for a mode). A mode that calls tools in text also reads the
 * request in native form and writes the reply back as text (react-text.ts). The registry is sim-modes.ts.
 */
import type { ModeId } from '../../../shared/modes.js';
import type { SimReply, WireMessage, WireTool } from '../types.js';
import type { PolicyFamily } from '../../tasks/task.js';
import type { Conversation } from './conversation.js';

/** What a request offers that tells the modes apart: its tool names, its system prompt, run_code's description. */
export interface ModeSignals {
  readonly toolNames: ReadonlySet<string>;
  readonly systemPrompt?: string;
  readonly runCodeDescription?: string;
}

export interface SimMode<Id extends ModeId = ModeId> {
  readonly id: Id;
  /** Whether the request is this mode's; the registry asks in its order and the first yes wins. */
  detect(signals: ModeSignals): boolean;
  /** Whose task policies it follows unless a task names its own for this mode (electron/tasks/task.ts). */
  readonly family: PolicyFamily;
  /** What the mode changes in any task's reply (ReAct + tool search: calls through call_tool). */
  adjust?(reply: SimReply, conv: Conversation): SimReply;
  /** A mode that calls tools in text: the request read in native form (null: not its format), the reply written back. */
  readonly text?: {
    nativeForm(
      messages: readonly WireMessage[],
      tools: readonly WireTool[],
    ): { messages: WireMessage[]; tools: WireTool[] } | null;
    writeReply(reply: SimReply, trial: number): string;
  };
}

export const defineSimMode = <Id extends ModeId>(mode: SimMode<Id>): SimMode<Id> => mode;
