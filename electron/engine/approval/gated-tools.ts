/**
 * `parallax exec` runs a program's tool calls with no run around them, so no approval gate either: without an
 * OS sandbox its run_shell read files outside the workspace unasked. Here the program's dangerous tools follow
 * the same policy as `parallax run` (shared/approval.ts through cliApprovalPolicy): allowed, asked on the
 * terminal, or refused with a ToolError that says why and which flag allows it.
 */
import { APPROVAL_TOOLS, type ApprovalPolicy, type ApprovalTool } from '../../../shared/approval.js';
import { ToolError, type ToolDefinition } from '../tools/tool.js';
import type { ApprovalAnswer } from '../../../shared/ipc-contract.js';

export interface ExecPrompter {
  ask(prompt: { label: string; tool: string; args: unknown }): Promise<ApprovalAnswer | null>;
}

const isGated = (name: string): name is ApprovalTool => (APPROVAL_TOOLS as readonly string[]).includes(name);

/** The tools as the program gets them: each dangerous one behind the policy. */
export function gatedTools(
  tools: readonly ToolDefinition[],
  policy: ApprovalPolicy,
  prompter: ExecPrompter | null,
): ToolDefinition[] {
  const allowedForAll = new Set<string>();
  return tools.map((tool) => {
    if (!isGated(tool.name) || policy[tool.name] === 'allow') return tool;
    const mode = policy[tool.name];
    const gated: ToolDefinition = {
      ...tool,
      async run(args, ctx) {
        if (mode === 'deny' || !prompter) {
          throw new ToolError(
            `${tool.name} is not allowed here (${tool.name === 'run_shell' ? 'commands would run outside an OS sandbox, reaching files outside the workspace' : 'the approval policy denies it'}): pass --approve ${tool.name}=allow to allow it.`,
          );
        }
        if (!allowedForAll.has(tool.name)) {
          const answer = await prompter.ask({ label: 'The program', tool: tool.name, args });
          if (answer === 'allow-comparison') allowedForAll.add(tool.name);
          else if (answer !== 'allow') throw new ToolError(`${tool.name} was denied on the terminal.`);
        }
        return tool.run(args, ctx);
      },
    };
    return gated;
  });
}
