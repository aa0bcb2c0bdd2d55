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
  /**
   * More files or folders shown read-only inside the sandbox, for what the detection misses (data files, a
   * package outside the project). Full paths (a variants or suite file's own are relative to it), checked
   * when the comparison starts: they must exist and may not be /, the home folder or a folder of keys.
   */
  readonly paths?: readonly string[];
}

export interface AgentRecord {
  readonly command: readonly string[];
  readonly envNames?: readonly string[];
  readonly timeoutMs?: number;
  readonly paths?: readonly string[];
}

/** One path an agent's program sees read-only, and why (the project root of its script, its interpreter, …). */
export interface AgentShownPath {
  readonly path: string;
  readonly why: string;
}

/**
 * How an agent column's command is started, resolved where the user's environment is (the host, when the
 * comparison starts; engine/agent/agent-launch.ts): the program as the real binary behind PATH and its version
 * managers' shims, what the sandbox shows, and the argv words it does not show. Never holds a secret.
 */
export interface AgentLaunch {
  /** The argv that runs: the program as a full path (launchers such as npx and uv run rewritten). */
  readonly argv: readonly string[];
  /** Folders put before the sandbox's own PATH (the interpreter's or the virtual environment's bin). */
  readonly pathDirs: readonly string[];
  /** Variables the launch adds (VIRTUAL_ENV for a virtual environment's Python). */
  readonly env: Readonly<Record<string, string>>;
  /** Shown read-only inside the sandbox, besides the system folders and the run's workspace. */
  readonly shown: readonly AgentShownPath[];
  /** Words of the command naming files or folders that are not shown (listed in `paths` they would be). */
  readonly hidden: readonly AgentShownPath[];
  /** How the program was found, one sentence each (a shim asked, npx rewritten, a .venv not used, …). */
  readonly notes: readonly string[];
}

export const AGENT_TIMEOUT_MS = 600_000;

/** What a column's program will see on this machine: its launch, and what contains it here. */
export interface AgentView {
  readonly launch: AgentLaunch;
  /** `bubblewrap`: only the system folders, `launch.shown` and the run's workspace; otherwise everything the user can. */
  readonly sandbox: { readonly kind: 'bubblewrap' | 'seatbelt' | 'none'; readonly reason: string };
}

/** The variables Parallax sets for every agent: a column's env may not replace them. */
export const AGENT_RESERVED_ENV = [
  'PARALLAX_TASK',
  'PARALLAX_MODEL',
  'PARALLAX_RUN_ID',
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_API_KEY',
] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const agentCommandSchema = z.strictObject(
  {
    command: z
      .array(z.string().min(1, 'must not hold an empty word').max(4096), {
        error: 'must be an array of words, e.g. ["python3", "agent.py"]',
      })
      .min(1, 'must name a program, e.g. ["python3", "agent.py"]')
      .max(256),
    env: z
      .record(z.string(), z.string({ error: 'values must be strings' }), {
        error: 'must be an object of strings, e.g. {"AGENT_STYLE": "terse"}',
      })
      .superRefine((env, ctx) => {
        for (const name of Object.keys(env)) {
          if (!ENV_NAME.test(name))
            ctx.addIssue({ code: 'custom', message: `"${name}" is not a variable name (letters, digits and _)` });
          else if ((AGENT_RESERVED_ENV as readonly string[]).includes(name))
            ctx.addIssue({
              code: 'custom',
              message: `${name} is set by Parallax (it points at the run's recording proxy); leave it out`,
            });
        }
      })
      .optional(),
    timeoutMs: z.number().int().min(1000).max(7_200_000).optional(),
    paths: z
      .array(z.string().min(1, 'must not hold an empty path').max(4096), {
        error: 'must be an array of full paths, e.g. ["/home/me/data"]',
      })
      .max(64, 'may list at most 64 paths')
      .optional(),
  },
  { error: 'must be {"command": ["program", "arg", …], "env": {…}, "paths": […]}' },
);

export function agentRecordOf(agent: AgentCommand): AgentRecord {
  const names = Object.keys(agent.env ?? {}).sort();
  return {
    command: [...agent.command],
    ...(names.length ? { envNames: names } : {}),
    ...(agent.timeoutMs !== undefined ? { timeoutMs: agent.timeoutMs } : {}),
    ...(agent.paths?.length ? { paths: [...agent.paths] } : {}),
  };
}

/** A short name for the program in labels: its script (the last argument that looks like a file), else the program. */
export function agentName(agent: Pick<AgentCommand, 'command'>): string {
  const base = (w: string) => w.split(/[\\/]/).pop() || w;
  const file = [...agent.command].reverse().find((w) => /\.[A-Za-z0-9]{1,5}$/.test(w) && !w.startsWith('-'));
  return base(file ?? agent.command[0]!);
}

/** The command as a shell would show it: words with spaces or quotes quoted, nothing else changed. */
export const agentCommandLine = (agent: Pick<AgentCommand, 'command'>): string =>
  agent.command.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
