/**
 * The one switch that turns the OS sandbox (bubblewrap) off: `PARALLAX_SANDBOX=off` in the environment. The
 * app then behaves exactly as on a machine without bubblewrap (run_shell asks before each command, the Python
 * child runs with only its own walls), so that configuration can be run and tested where bubblewrap exists.
 * Read here and nowhere else; the worker keeps the variable (host/launcher.ts) so both sides agree.
 */
export const SANDBOX_SWITCH = 'PARALLAX_SANDBOX';

/** Whether the environment switches the OS sandbox off (`PARALLAX_SANDBOX=off`). */
export function osSandboxSwitchedOff(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SANDBOX_SWITCH]?.trim().toLowerCase() === 'off';
}
