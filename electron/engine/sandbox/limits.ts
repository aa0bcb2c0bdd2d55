/** The sandbox's limits: what a program may use before it is stopped. */
import type { RunSettings } from '../../../shared/run-spec.js';

export interface SandboxLimits {
  /** Wall-clock time for the whole program, tool calls included. */
  readonly timeoutMs: number;
  /** QuickJS heap (setMemoryLimit). */
  readonly memoryMb: number;
  /** Printed characters kept; the rest is replaced by a marker. */
  readonly outputChars: number;
  /** Calls to tools and to search_tools per program. */
  readonly maxToolCalls: number;
  /** QuickJS stack (setMaxStackSize); deeper recursion throws a stack overflow error. Default 256. */
  readonly stackKb?: number;
}

export const DEFAULT_STACK_KB = 256;

/** Ranges accepted by runProgram; the stack is capped so QuickJS's own check fires before the thread's. */
const RANGES: Record<keyof SandboxLimits, [number, number]> = {
  timeoutMs: [10, 3_600_000],
  memoryMb: [8, 2048],
  outputChars: [1, 10_000_000],
  maxToolCalls: [0, 1_000_000],
  stackKb: [16, 1024],
};

export function limitsFromSettings(settings: RunSettings): Required<SandboxLimits> {
  return {
    timeoutMs: settings.codeTimeoutMs,
    memoryMb: settings.codeMemoryMb,
    outputChars: settings.codeOutputChars,
    maxToolCalls: settings.codeMaxToolCalls,
    stackKb: DEFAULT_STACK_KB,
  };
}

/** Fills the default stack and throws an Error naming every value that is missing or out of range. */
export function checkLimits(limits: SandboxLimits): Required<SandboxLimits> {
  const full = { stackKb: DEFAULT_STACK_KB, ...limits };
  const problems: string[] = [];
  for (const [key, [min, max]] of Object.entries(RANGES) as [keyof SandboxLimits, [number, number]][]) {
    const value = full[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
      problems.push(`${key} must be a number from ${min} to ${max} (got ${String(value)})`);
    }
  }
  if (problems.length > 0) throw new Error(`Invalid sandbox limits: ${problems.join('; ')}.`);
  return full;
}
