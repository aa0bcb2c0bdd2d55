/**
 * The one switch that turns the OS sandbox off: `PARALLAX_SANDBOX=off`. The app then behaves exactly as on a
 * machine where bubblewrap (or Seatbelt) is missing, so that configuration can be run and tested on purpose
 * (CI runs the containment attacks both ways). Read here only; every caller asks `osSandboxSwitchedOff()`.
 */
export const SANDBOX_SWITCH = 'PARALLAX_SANDBOX';

export function osSandboxSwitchedOff(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SANDBOX_SWITCH]?.trim().toLowerCase() === 'off';
}
