/**
 * The approval policy on the command line: `--approve run_shell=ask,write_file=allow` (see shared/approval.ts).
 * 'ask' prompts on the terminal, one request at a time, while the other runs go on. Without a terminal there
 * is no one to ask: an explicit 'ask' is refused before anything starts, and a default of 'ask' becomes 'deny'
 * with a note saying which flag allows the tool.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import {
  APPROVAL_KEYS,
  APPROVAL_TOOLS,
  parseApprovalFlag,
  resolveApprovalPolicy,
  type ApprovalPolicy,
  type ApprovalPolicyInput,
  type ApprovalTool,
} from '../../shared/approval.js';
import { approvalArgsText, inert } from '../../shared/inert-text.js';
import type { ApprovalAnswer } from '../../shared/ipc-contract.js';
import { shellSandbox } from '../engine/sandbox/shell-sandbox.js';

export const APPROVE_FLAG_HELP =
  'per tool: allow, ask or deny, e.g. run_shell=ask,write_file=allow (tools: run_shell, write_file, fetch_url, or all); ' +
  'ask prompts on the terminal';

export interface CliPolicy {
  readonly policy: ApprovalPolicy;
  /** Sentences for stderr: defaults turned into deny for want of a terminal. */
  readonly notes: readonly string[];
}

export function cliApprovalPolicy(
  flag: string | undefined,
  opts: { readonly tty: boolean; readonly userFolder: boolean; readonly base?: ApprovalPolicyInput },
): CliPolicy {
  const chosen = { ...opts.base, ...(flag === undefined ? {} : parseApprovalFlag(flag)) };
  if (!opts.tty) {
    const asked = APPROVAL_KEYS.filter((t) => chosen[t] === 'ask');
    if (asked.length > 0) {
      const alternatives = asked.map((t) => `${t}=allow or ${t}=deny`).join('; ');
      throw new Error(
        `--approve ${asked.map((t) => `${t}=ask`).join(',')} needs a terminal to ask on, and stdin is not one. Pass ${alternatives} instead.`,
      );
    }
  }
  const policy: { -readonly [T in ApprovalTool]: ApprovalPolicy[T] } = resolveApprovalPolicy(chosen, {
    shellSandbox: shellSandbox().kind,
    userFolder: opts.userFolder,
  });
  const notes: string[] = [];
  if (!opts.tty) {
    for (const tool of APPROVAL_TOOLS) {
      if (policy[tool] !== 'ask') continue;
      policy[tool] = 'deny';
      const why =
        tool === 'run_shell' ? 'commands run outside a sandbox on this machine' : 'the workspace is a folder of yours';
      notes.push(
        `${tool} asks for approval by default here (${why}) and there is no terminal to ask on, so it is denied. Pass --approve ${tool}=allow to allow it.`,
      );
    }
  }
  return { policy, notes };
}

export interface ApprovalPrompt {
  readonly label: string;
  /** run_shell, write_file, fetch_url, or an MCP tool's name. */
  readonly tool: string;
  readonly args: unknown;
  /** A wait that ends without an answer (the run was cancelled) drops its prompt. */
  readonly signal?: AbortSignal;
}

/** Characters of the arguments shown before the middle is left out (the start and the end always show). */
const PROMPT_ARGS_CHARS = 2000;

const ANSWERS: Record<string, ApprovalAnswer> = {
  y: 'allow',
  yes: 'allow',
  n: 'deny',
  no: 'deny',
  a: 'allow-comparison',
  all: 'allow-comparison',
};

/**
 * Prompts on a terminal, one request at a time in arrival order. Each answer is y (allow), n (deny) or
 * a (allow this tool for the rest of the comparison); anything else asks again.
 */
export class TerminalPrompter {
  private rl: Interface | null = null;
  private inputEnded = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  ask(prompt: ApprovalPrompt): Promise<ApprovalAnswer | null> {
    const answer = this.queue.then(() => this.askNow(prompt));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  /** Another kind of prompt (an MCP server's form) in the same queue, reading lines the same way. */
  converse<T>(
    fn: (
      question: (text: string, signal?: AbortSignal) => Promise<string | null>,
      write: (text: string) => void,
    ) => Promise<T>,
  ): Promise<T> {
    const result = this.queue.then(() => {
      this.reader();
      return fn(
        (text, signal) => this.question(text, signal, null),
        (text) => this.output.write(text),
      );
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  private reader(): void {
    if (this.rl) return;
    this.rl = createInterface({ input: this.input, output: this.output, terminal: false });
    this.rl.once('close', () => {
      this.inputEnded = true;
    });
  }

  close(): void {
    this.rl?.close();
    this.rl = null;
  }

  private async askNow(prompt: ApprovalPrompt): Promise<ApprovalAnswer | null> {
    if (prompt.signal?.aborted) return null;
    this.reader();
    // The arguments whole, or their start and end: a dangerous tail is never cut off (shared/inert-text.ts).
    const args = approvalArgsText(prompt.tool, prompt.args, PROMPT_ARGS_CHARS);
    const tool = inert(prompt.tool);
    this.output.write(`\n${inert(prompt.label)} wants to call ${tool}:\n${args}\n`);
    for (;;) {
      const line = await this.question(
        `Allow? [y]es, [n]o, [a]llow ${tool} for this whole comparison: `,
        prompt.signal,
      );
      if (line === null) {
        this.output.write('(no longer waiting: the run ended)\n');
        return null;
      }
      const answer = ANSWERS[line.trim().toLowerCase()];
      if (answer) return answer;
    }
  }

  /** `closed`: the answer once the input has ended ('n' for an approval: nobody can allow it). */
  private question(text: string, signal: AbortSignal | undefined, closed: string | null = 'n'): Promise<string | null> {
    const rl = this.rl!;
    if (this.inputEnded) return Promise.resolve(closed);
    return new Promise((resolve) => {
      const onLine = (line: string): void => done(line);
      const onClose = (): void => done(closed);
      const onAbort = (): void => done(null);
      const done = (value: string | null): void => {
        rl.off('line', onLine);
        rl.off('close', onClose);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      this.output.write(text);
      rl.on('line', onLine);
      rl.on('close', onClose);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
