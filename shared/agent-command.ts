/**
 * An agent column's program (mode "agent", shared/variants.ts): the command Parallax starts in the run's
 * workspace copy, and the variables it adds to the agent's otherwise cleared environment. The values of `env`
 * travel with the run spec like a key (never recorded); the record keeps the command and the variables' names.
 */
import { z } from 'zod';

export interface AgentCommand {
  /** argv: the program and its arguments, run without a shell. */
  readonly command: readonly string[];
  /** Variables added to the agent's environment (names of Parallax's own variables are refused). */
  readonly env?: Readonly<Record<string, string>>;
  /** Longest the program may run, ms (default AGENT_TIMEOUT_MS). */
  readonly timeoutMs?: number;
}

export interface AgentRecord {
  readonly command: readonly string[];
  readonly envNames?: readonly string[];
  readonly timeoutMs?: number;
}

export const AGENT_TIMEOUT_MS = 600_000;

/** The variables Parallax sets for every agent: a column's env may not replace them. */
export const AGENT_RESERVED_ENV = [
  'PARALLAX_TASK', 'PARALLAX_MODEL', 'PARALLAX_RUN_ID', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY',
] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const agentCommandSchema = z.strictObject({
  command: z
    .array(z.string().min(1, 'must not hold an empty word').max(4096), { error: 'must be an array of words, e.g. ["python3", "agent.py"]' })
    .min(1, 'must name a program, e.g. ["python3", "agent.py"]')
    .max(256),
  env: z
    .record(z.string(), z.string({ error: 'values must be strings' }), { error: 'must be an object of strings, e.g. {"AGENT_STYLE": "terse"}' })
    .superRefine((env, ctx) => {
      for (const name of Object.keys(env)) {
        if (!ENV_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `"${name}" is not a variable name (letters, digits and _)` });
        else if ((AGENT_RESERVED_ENV as readonly string[]).includes(name)) ctx.addIssue({ code: 'custom', message: `${name} is set by Parallax (it points at the run's recording proxy); leave it out` });
      }
    })
    .optional(),
  timeoutMs: z.number().int().min(1000).max(7_200_000).optional(),
}, { error: 'must be {"command": ["program", "arg", …], "env": {…}}' });

export function agentRecordOf(agent: AgentCommand): AgentRecord {
  const names = Object.keys(agent.env ?? {}).sort();
  return { command: [...agent.command], ...(names.length ? { envNames: names } : {}), ...(agent.timeoutMs !== undefined ? { timeoutMs: agent.timeoutMs } : {}) };
}

/** A short name for the program in labels: its script (the last argument that looks like a file), else the program. */
export function agentName(agent: Pick<AgentCommand, 'command'>): string {
  const base = (w: string) => w.split(/[\\/]/).pop() || w;
  const file = [...agent.command].reverse().find((w) => /\.[A-Za-z0-9]{1,5}$/.test(w) && !w.startsWith('-'));
  return base(file ?? agent.command[0]!);
}
