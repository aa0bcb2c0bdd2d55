/**
 * Limits of the built-in tools. A host (or a test) may tighten any of them through `ToolContext.limits`;
 * whatever it leaves out falls back to these defaults.
 */
import type { ToolContext } from './tool.js';

export interface ToolLimits {
  /** read_file refuses files larger than this. */
  readonly readFileMaxBytes: number;
  /** run_shell kills the command's whole process group after this long. */
  readonly shellTimeoutMs: number;
  /** run_shell keeps at most this many bytes of stdout and of stderr, then adds a marker. */
  readonly shellOutputBytes: number;
  readonly fetchTimeoutMs: number;
  /** fetch_url stops reading the body after this many bytes. */
  readonly fetchMaxBytes: number;
  /** fetch_url returns at most this many characters of readable text. */
  readonly fetchTextChars: number;
  /** calculator refuses longer expressions (a cheap guard against pathological input). */
  readonly calculatorMaxChars: number;
  /** calculator stops an evaluation after this long (a Code Mode program's own deadline may stop it sooner). */
  readonly calculatorTimeoutMs: number;
  /** fetch_url stops turning a page into text after this long and falls back to the page with tags removed. */
  readonly htmlTimeoutMs: number;
  /** search_tools stops ranking after this long. */
  readonly searchTimeoutMs: number;
  /** run_shell: processes a command may have at once; more stops it. */
  readonly shellMaxProcesses: number;
  /** run_shell in the sandbox: size of its private /tmp (also its home). */
  readonly shellTmpBytes: number;
  /**
   * Bytes a run may add to its workspace in all: write_file's bytes and what run_shell commands add. A shell
   * command may write no single file larger than what is left (RLIMIT_FSIZE) and is stopped past it.
   */
  readonly workspaceWriteBytes: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  readFileMaxBytes: 1024 * 1024,
  shellTimeoutMs: 15_000,
  shellOutputBytes: 64 * 1024,
  fetchTimeoutMs: 15_000,
  fetchMaxBytes: 2 * 1024 * 1024,
  fetchTextChars: 50_000,
  calculatorMaxChars: 2000,
  calculatorTimeoutMs: 5_000,
  htmlTimeoutMs: 5_000,
  searchTimeoutMs: 2_000,
  shellMaxProcesses: 128,
  shellTmpBytes: 64 * 1024 * 1024,
  workspaceWriteBytes: 100 * 1024 * 1024,
};

export function limitsOf(ctx: Pick<ToolContext, 'limits'>): ToolLimits {
  return { ...DEFAULT_TOOL_LIMITS, ...ctx.limits };
}

/** `1048576` → `1 MB`, `2048` → `2 KB`: sizes in messages meant for the model. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
