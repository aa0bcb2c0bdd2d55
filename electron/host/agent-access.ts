/**
 * Which agent columns (mode "agent", shared/agent-command.ts) a request may carry. An agent column is a
 * command this host runs, so it is treated as MCP stdio servers are (mcp-access.ts):
 * - CLI: the user's own `--variants`, as given;
 * - desktop app: a request with agent columns starts only after the user allowed their exact command lines in
 *   a native dialog (the answer may be kept for the identical set until the app quits);
 * - web host: refused unless the operator allowed the program with `parallax serve --allow-agent-command`.
 * From a page (and a suite file), env variables go by env-policy.ts's allowlist, as for MCP servers.
 */
import { createHash } from 'node:crypto';
import { agentCommandLine, type AgentCommand } from '../../shared/agent-command.js';
import { parseVariants, type VariantInput } from '../../shared/variants.js';
import { checkEnvNames, DIALOG_ALLOWANCE, envLine, serveAllowance, type EnvAllowance } from './env-policy.js';
import { shellSandbox, type ShellSandboxInfo } from '../engine/sandbox/shell-sandbox.js';

export interface AgentColumnRequest {
  readonly label: string;
  readonly agent: AgentCommand;
}

export interface AgentAccess {
  /** Throws a clear Error (saying how to enable it) when the request's agent columns may not run here. */
  check(variants: unknown): Promise<void>;
  /** The same rules without asking anyone (the desktop's dialog comes at the start): may a page see what these would see? */
  preview(variants: unknown): Promise<void>;
}

export interface AgentConfirmation {
  readonly allowed: boolean;
  readonly remember: boolean;
}
export type ConfirmAgents = (columns: readonly AgentColumnRequest[]) => Promise<AgentConfirmation>;

/** The request's agent columns; none when it gives no variants (a malformed list is reported where it is read). */
function agentColumnsOf(variants: unknown): AgentColumnRequest[] {
  if (variants === undefined || variants === null || (Array.isArray(variants) && variants.length === 0)) return [];
  return parseVariants(variants).flatMap((v, i) =>
    v.agent ? [{ label: v.label ?? `column ${i + 1}`, agent: v.agent }] : [],
  );
}

function checkColumnEnv(columns: readonly AgentColumnRequest[], allowance: EnvAllowance): void {
  for (const c of columns) checkEnvNames(`Agent column "${c.label}"`, c.agent.env, allowance);
}

export const commandLine = agentCommandLine;

export function cliAgents(): AgentAccess {
  return { check: async () => undefined, preview: async () => undefined };
}

/** A page with no way to run agent columns (a host made without a policy for them). */
export function noPageAgents(how: string): AgentAccess {
  const check = async (variants: unknown) => {
    if (agentColumnsOf(variants).length > 0)
      throw new Error(`This host does not run agent columns from the page. ${how}`);
  };
  return { check, preview: check };
}

/** The web host: agent columns whose program (the command's first word, exactly) the operator allowed. */
export function webAgents(commands: readonly string[], env: readonly string[] = []): AgentAccess {
  const allowed = new Set(commands);
  const allowance = serveAllowance(env);
  const check = async (variants: unknown) => {
    const columns = agentColumnsOf(variants);
    if (columns.length === 0) return;
    checkColumnEnv(columns, allowance);
    for (const c of columns) {
      // Extra read-only paths widen what the operator's allowed program may read: only the operator's own files name them.
      if (c.agent.paths?.length)
        throw new Error(
          `Agent column "${c.label}": agent.paths is not taken from a page on this web host (it would show more of this machine's files to the program). Leave it out, or run the comparison with parallax compare --variants FILE.`,
        );
      const program = c.agent.command[0]!;
      if (!allowed.has(program)) {
        throw new Error(
          `Agent column "${c.label}": this web host does not start the program ${program}. The operator can allow it with parallax serve --allow-agent-command ${program} (the page then chooses its arguments), or run it with parallax compare --variants FILE.`,
        );
      }
    }
  };
  return { check, preview: check };
}

/**
 * A suite file's agent columns (`parallax suite run FILE`): a suite file may come from anyone, so its env goes
 * by the same allowlist as a page's, widened only by `--allow-env NAME`.
 */
export function checkSuiteAgentEnv(variants: readonly VariantInput[], allowEnv: readonly string[], file: string): void {
  const allowance: EnvAllowance = {
    allowed: new Set(allowEnv),
    how: (name) => `run it with parallax suite run --allow-env ${name} ${file}`,
  };
  checkColumnEnv(
    variants.flatMap((v, i) => (v.agent ? [{ label: v.label ?? `column ${i + 1}`, agent: v.agent }] : [])),
    allowance,
  );
}

/** The desktop app: agent columns only after the user allowed their command lines in `confirm` (a native dialog). */
export function confirmedAgents(confirm: ConfirmAgents): AgentAccess {
  const remembered = new Set<string>();
  return {
    async preview(variants) {
      checkColumnEnv(agentColumnsOf(variants), DIALOG_ALLOWANCE);
    },
    async check(variants) {
      const columns = agentColumnsOf(variants);
      if (columns.length === 0) return;
      checkColumnEnv(columns, DIALOG_ALLOWANCE);
      const key = createHash('sha256')
        .update(
          JSON.stringify(
            columns.map((c) => [c.agent.command, Object.entries(c.agent.env ?? {}).sort(), c.agent.paths ?? []]),
          ),
        )
        .digest('hex');
      if (remembered.has(key)) return;
      const answer = await confirm(columns);
      if (!answer.allowed)
        throw new Error(
          `Not allowed: the agent command${columns.length > 1 ? 's were' : ' was'} refused in the confirmation, so nothing was started. Remove the agent columns from the variants, or start again and allow them.`,
        );
      if (answer.remember) remembered.add(key);
    },
  };
}

/** What the agents can reach here, in the dialog's words: true of this machine's sandbox (shell-sandbox.ts). */
export function agentReachText(info: Pick<ShellSandboxInfo, 'kind' | 'reason' | 'unshare'>): string {
  const key =
    'Parallax gives them no key: they reach the model through its recording proxy, with a token of their own.';
  if (info.kind === 'bubblewrap')
    return `${key} They run in a bubblewrap sandbox: no network but that proxy, no other process visible, only the run's workspace writable.`;
  const procs = info.unshare
    ? 'a user namespace of their own keeps the environment and memory of your other processes from them'
    : 'they can also read the environment and memory of your other processes, where a key may be';
  return `${key} But there is no OS sandbox here, so they run as you: they can read and write your files (a key stored in a file included) and reach any network; ${procs}.`;
}

/** The desktop dialog's words: each exact command line and its env (a key's value never shown). */
export function agentConfirmText(
  columns: readonly AgentColumnRequest[],
  sandbox: Pick<ShellSandboxInfo, 'kind' | 'reason' | 'unshare'> = shellSandbox(),
): { message: string; detail: string } {
  const lines = columns.map((c) => {
    const env = Object.entries(c.agent.env ?? {});
    return [
      `${c.label}: ${commandLine(c.agent)}`,
      "    in each run's own copy of the workspace",
      ...env.map(([name, value]) => `    env ${envLine(name, value)}`),
      ...(c.agent.paths?.length ? [`    also shown read-only: ${c.agent.paths.join(', ')}`] : []),
    ].join('\n');
  });
  return {
    message: `Run ${columns.length === 1 ? 'this agent command' : `these ${columns.length} agent commands`} for every run of its column?`,
    detail: [...lines, `${agentReachText(sandbox)} Allow only commands you wrote yourself.`].join('\n\n'),
  };
}
