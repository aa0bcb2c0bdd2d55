/**
 * The approval policy: for each tool that can reach outside the run (run a command, write a file, fetch a
 * URL), whether its calls run ('allow'), wait for the user ('ask') or are refused ('deny'). The policy is part
 * of RunSettings, so run-started records what governed each run.
 *
 * Defaults (resolveApprovalPolicy), chosen to be safe without getting in the way of a measurement:
 * - run_shell: 'allow' only where commands run inside the OS shell sandbox; elsewhere a command could read or
 *   change anything the user can, so it asks.
 * - write_file: 'allow'. It writes only inside the run's own copy of the workspace, never the user's folder.
 * - fetch_url: 'allow' on a built-in task's generated files (nothing private to send out; private and loopback
 *   addresses are refused by the tool itself), 'ask' when the workspace is a copy of the user's own folder,
 *   because a fetched URL can carry what the model read there to any server.
 * - mcp: every tool of the run's MCP servers, which the user configured; 'allow' unless chosen, and recorded
 *   only when chosen (so policies of runs without it read as before).
 * - mcp-readonly / mcp-destructive: the MCP tools whose annotations say read-only, or that may destroy (a
 *   destructive hint, or none: MCP's default) — shared/mcp-tools.ts. Each, when chosen, overrides `mcp` for its
 *   tools; unset, they take `mcp`'s mode (so the default stays allow: a measurement with servers the user
 *   configured is not held up, and hints are a server's word). E.g. `mcp-destructive=ask,mcp-readonly=allow`.
 * - mcp-sampling: an MCP server's request that the run's model answer a prompt of its own (MCP sampling), which
 *   spends the run's tokens and shows the server the reply; unset, it takes `mcp`'s mode (so allow by default:
 *   the user configured the server, and every sampling is recorded and counted).
 */
import { z } from 'zod';

export const APPROVAL_TOOLS = ['run_shell', 'write_file', 'fetch_url'] as const;
export type ApprovalTool = (typeof APPROVAL_TOOLS)[number];

export const APPROVAL_MODES = ['allow', 'ask', 'deny'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The policy key that covers every MCP tool of a run (engine/mcp/); events name the tool itself. */
export const MCP_APPROVAL = 'mcp';
/** The MCP tools by their annotations (shared/mcp-tools.ts mcpToolKind): each overrides `mcp` when chosen. */
export const MCP_READONLY_APPROVAL = 'mcp-readonly';
export const MCP_DESTRUCTIVE_APPROVAL = 'mcp-destructive';
/** An MCP server's sampling request (its prompt answered by the run's model). */
export const MCP_SAMPLING_APPROVAL = 'mcp-sampling';
export const MCP_APPROVAL_KEYS = [
  MCP_APPROVAL,
  MCP_READONLY_APPROVAL,
  MCP_DESTRUCTIVE_APPROVAL,
  MCP_SAMPLING_APPROVAL,
] as const;
/** What --approve and the policy take: the built-in tools one by one, and MCP tools together or by their hints. */
export const APPROVAL_KEYS = [...APPROVAL_TOOLS, ...MCP_APPROVAL_KEYS] as const;
export type ApprovalKey = (typeof APPROVAL_KEYS)[number];

export type ApprovalPolicy = { readonly [T in ApprovalTool]: ApprovalMode } & {
  readonly mcp?: ApprovalMode;
  readonly 'mcp-readonly'?: ApprovalMode;
  readonly 'mcp-destructive'?: ApprovalMode;
  readonly 'mcp-sampling'?: ApprovalMode;
};

/** In RunSettings: a tool left out takes its default, which the host fills in before the run is recorded. */
export const approvalPolicySchema = z
  .object({
    run_shell: z.enum(APPROVAL_MODES).optional(),
    write_file: z.enum(APPROVAL_MODES).optional(),
    fetch_url: z.enum(APPROVAL_MODES).optional(),
    mcp: z.enum(APPROVAL_MODES).optional(),
    'mcp-readonly': z.enum(APPROVAL_MODES).optional(),
    'mcp-destructive': z.enum(APPROVAL_MODES).optional(),
    'mcp-sampling': z.enum(APPROVAL_MODES).optional(),
  })
  .strict()
  .default({});

export type ApprovalPolicyInput = Partial<ApprovalPolicy>;

export function isApprovalKey(name: string): name is ApprovalKey {
  return (APPROVAL_KEYS as readonly string[]).includes(name);
}

export function isApprovalTool(name: string): name is ApprovalTool {
  return (APPROVAL_TOOLS as readonly string[]).includes(name);
}

/**
 * What the defaults depend on. `shellSandbox`: how run_shell is contained on this machine. Only bubblewrap
 * (files, network AND processes, tested on CI) lets commands run without asking; macOS Seatbelt leaves
 * processes uncontained and is not run on CI, and 'none' contains nothing, so both ask.
 */
export interface PolicyContext {
  readonly shellSandbox: 'bubblewrap' | 'seatbelt' | 'none';
  /** The workspace is a copy of a folder of the user's (not a built-in task's generated files). */
  readonly userFolder: boolean;
}

export function defaultApprovalPolicy(ctx: PolicyContext): ApprovalPolicy {
  return {
    run_shell: ctx.shellSandbox === 'bubblewrap' ? 'allow' : 'ask',
    write_file: 'allow',
    fetch_url: ctx.userFolder ? 'ask' : 'allow',
  };
}

/** The full policy: what the user chose, and the default for each tool they left out. */
export function resolveApprovalPolicy(chosen: ApprovalPolicyInput | undefined, ctx: PolicyContext): ApprovalPolicy {
  const defaults = defaultApprovalPolicy(ctx);
  return {
    run_shell: chosen?.run_shell ?? defaults.run_shell,
    write_file: chosen?.write_file ?? defaults.write_file,
    fetch_url: chosen?.fetch_url ?? defaults.fetch_url,
    ...(chosen?.mcp ? { mcp: chosen.mcp } : {}),
    ...(chosen?.['mcp-readonly'] ? { 'mcp-readonly': chosen['mcp-readonly'] } : {}),
    ...(chosen?.['mcp-destructive'] ? { 'mcp-destructive': chosen['mcp-destructive'] } : {}),
    ...(chosen?.['mcp-sampling'] ? { 'mcp-sampling': chosen['mcp-sampling'] } : {}),
  };
}

/** The mode for one MCP tool of the given kind: its kind's entry, else `mcp`, else allow. */
export function mcpApprovalMode(policy: ApprovalPolicyInput, kind: 'readonly' | 'destructive' | 'other'): ApprovalMode {
  const own =
    kind === 'readonly' ? policy['mcp-readonly'] : kind === 'destructive' ? policy['mcp-destructive'] : undefined;
  return own ?? policy.mcp ?? 'allow';
}

/** The mode for an MCP server's sampling request: its own entry, else `mcp`, else allow. */
export function samplingApprovalMode(policy: ApprovalPolicyInput): ApprovalMode {
  return policy['mcp-sampling'] ?? policy.mcp ?? 'allow';
}

/**
 * The CLI's `--approve run_shell=ask,write_file=allow` (also `all=deny`). Throws an Error that names the bad
 * part and shows the form to use.
 */
export function parseApprovalFlag(text: string): ApprovalPolicyInput {
  const form = `Use tool=mode pairs separated by commas, e.g. --approve run_shell=ask,write_file=allow. Tools: ${APPROVAL_TOOLS.join(', ')}, mcp (every MCP tool), mcp-readonly, mcp-destructive (MCP tools by their annotations), mcp-sampling (a server's request to the run's model) (or all); modes: ${APPROVAL_MODES.join(', ')}.`;
  const out: { -readonly [T in ApprovalKey]?: ApprovalMode } = {};
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error(`--approve needs at least one tool=mode pair. ${form}`);
  for (const part of parts) {
    const m = /^([a-z_-]+)\s*[=:]\s*([a-z]+)$/i.exec(part);
    if (!m) throw new Error(`"${part}" is not a tool=mode pair. ${form}`);
    const tool = m[1].toLowerCase();
    const mode = m[2].toLowerCase();
    if (!(APPROVAL_MODES as readonly string[]).includes(mode))
      throw new Error(`"${mode}" in "${part}" is not a mode. ${form}`);
    if (tool === 'all') {
      // The kind entries are left unset: they follow mcp, so `all=deny,mcp=allow` allows every MCP tool.
      for (const t of [...APPROVAL_TOOLS, MCP_APPROVAL] as const) out[t] = mode as ApprovalMode;
    } else if (isApprovalKey(tool)) {
      out[tool] = mode as ApprovalMode;
    } else {
      throw new Error(`"${tool}" in "${part}" is not a tool the approval policy covers. ${form}`);
    }
  }
  return out;
}

export function formatApprovalPolicy(policy: ApprovalPolicyInput): string {
  return APPROVAL_KEYS.filter((t) => policy[t])
    .map((t) => `${t}=${policy[t]}`)
    .join(', ');
}
