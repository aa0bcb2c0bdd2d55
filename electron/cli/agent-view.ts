/**
 * What an agent column will see, before any run: `parallax tools --variants FILE` (or `--suite FILE`) prints
 * it for each agent column, and `compare` and `suite run` say which programs a file makes them start. The
 * launch is resolved as the host resolves it when the comparison starts (engine/agent/agent-launch.ts).
 */
import {
  agentCommandLine as commandLine,
  agentName,
  type AgentCommand,
  type AgentLaunch,
} from '../../shared/agent-command.js';
import type { VariantInput } from '../../shared/variants.js';

export interface AgentView {
  readonly column: number;
  readonly label: string;
  readonly command: readonly string[];
  readonly launch: AgentLaunch | null;
  /** Why it cannot start (the comparison would refuse it with these words). */
  readonly error: string | null;
}

/** The column's label as the comparison shows it ("Agent · agent.py" unless the file names one). */
const labelOf = (v: VariantInput, _i: number) => v.label ?? `Agent · ${agentName(v.agent!)}`;

/** Each agent column of `variants`, resolved with this process's environment. */
export async function agentViews(variants: readonly VariantInput[], dataDir: string | null): Promise<AgentView[]> {
  const { resolveAgentLaunch } = await import('../engine/agent/agent-launch.js');
  const out: AgentView[] = [];
  for (const [i, v] of variants.entries()) {
    if (!v.agent) continue;
    const base = { column: i + 1, label: labelOf(v, i), command: v.agent.command };
    try {
      out.push({ ...base, launch: await resolveAgentLaunch(v.agent, { env: process.env, dataDir }), error: null });
    } catch (err) {
      out.push({ ...base, launch: null, error: (err as Error).message });
    }
  }
  return out;
}

/** The view as lines for the terminal; `sandbox` says what contains agents on this machine. */
export function agentViewText(view: AgentView, sandbox: { readonly kind: string; readonly reason: string }): string[] {
  const lines = [`${view.label} (column ${view.column}): ${commandLine({ command: view.command })}`];
  const row = (key: string, value: string) => lines.push(`  ${key.padEnd(10)} ${value}`);
  if (!view.launch) {
    row('cannot run', view.error ?? '');
    return lines;
  }
  const l = view.launch;
  row('runs', commandLine({ command: l.argv }));
  if (sandbox.kind === 'bubblewrap') {
    row('sandbox', "bubblewrap: no network but its recording proxy; writes only to the run's copy of the workspace");
    row('read-only', 'the system folders (/usr, /etc, /opt, …)');
    for (const s of l.shown) row('', `${s.path}  (${s.why})`);
  } else {
    row(
      'sandbox',
      `none here — it can read and write what you can (${sandbox.reason.split('. ')[0]}). Where bubblewrap works it would see, read-only:`,
    );
    for (const s of l.shown) row('', `${s.path}  (${s.why})`);
  }
  for (const h of l.hidden) row('not shown', `${h.path}  (${h.why})`);
  for (const n of l.notes) row('note', n);
  return lines;
}

/** One line per agent column a file makes this command start: a file can carry programs, so say so before they run. */
export function agentProgramsNote(
  variants: readonly VariantInput[] | null,
  from: string,
  sandboxKind: string,
): string | null {
  const agents = (variants ?? []).flatMap((v, i) =>
    v.agent ? [{ label: labelOf(v, i), agent: v.agent as AgentCommand }] : [],
  );
  if (agents.length === 0) return null;
  const contained =
    sandboxKind === 'bubblewrap'
      ? 'each in a bubblewrap sandbox'
      : 'WITHOUT an OS sandbox here: as you, with your files and network';
  return [
    `note: ${from} runs ${agents.length === 1 ? 'a program' : `${agents.length} programs`} on this machine (agent columns), ${contained}:`,
    ...agents.map((a) => `  ${a.label}: ${commandLine(a.agent)}`),
    '  Run only files you trust. `parallax tools --variants FILE` (or --suite FILE) shows what each will see.',
  ].join('\n');
}
