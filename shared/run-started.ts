/**
 * The first event of every run, built from its spec in one place: by the engine when a run starts (with the
 * mode's prompt, tools and how run_shell is contained) and, with no prompt and no tools, wherever a run ends
 * before the engine could say it (setup failed, its worker died first, it was cancelled before its round).
 */
import type { RunSpec } from './run-spec.js';
import type { RunStartedEvent, ShellSandboxRecord, ToolExposure } from './step-event.js';
import type { McpToolRecord } from './mcp-tools.js';

export type RunStartedBody = Omit<RunStartedEvent, 'runId' | 'seq' | 't'>;

export interface RunStartedParts {
  readonly startedAt: number;
  readonly systemPrompt?: string;
  readonly tools?: readonly ToolExposure[];
  readonly shellSandbox?: ShellSandboxRecord;
  readonly mcpTools?: readonly McpToolRecord[];
}

export function runStartedOf(spec: RunSpec, parts: RunStartedParts): RunStartedBody {
  return {
    type: 'run-started',
    mode: spec.mode,
    task: spec.task,
    provider: spec.provider,
    settings: spec.settings,
    systemPrompt: parts.systemPrompt ?? '',
    tools: parts.tools ?? [],
    startedAt: parts.startedAt,
    ...(spec.comparisonId ? { comparisonId: spec.comparisonId } : {}),
    // The price the host resolved, recorded as it was (absent when the spec carries none, as before prices existed).
    ...(spec.price !== undefined ? { price: spec.price } : {}),
    ...(parts.shellSandbox ? { shellSandbox: parts.shellSandbox } : {}),
    ...(parts.mcpTools?.length ? { mcpTools: parts.mcpTools } : {}),
    ...(spec.variant ? { variant: spec.variant } : {}),
  };
}

/** The whole event at the head of a run's log (seq 0, t 0), for a run that ended before its engine spoke. */
export function runStartedEvent(spec: RunSpec, startedAt: number): RunStartedEvent {
  const { type, ...body } = runStartedOf(spec, { startedAt });
  return { type, runId: spec.runId, seq: 0, t: 0, ...body };
}
