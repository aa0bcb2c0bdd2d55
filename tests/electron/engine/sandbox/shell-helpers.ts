/** Helpers for the run_shell attack tests: finding processes a command left behind, from outside it. */
import { readdirSync, readFileSync } from 'node:fs';

/** Host pids of running (not zombie) processes whose command line contains `token`. */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(token) && !/^\d+ \(.*\) Z/.test(stat)) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** A process's command line as /proc holds it (NUL-separated), or null once it has gone. */
export function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A killed process needs a moment to be reaped; wait until none with `token` is left (or give up). The limit is
 * generous because a busy machine reaps slowly; a test that passes returns as soon as the last one has gone.
 */
export async function noneLeft(token: string, waitMs = 30_000): Promise<number[]> {
  const until = Date.now() + waitMs;
  let left = processesWith(token);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    left = processesWith(token);
  }
  return left;
}

/** Kill what a failed test left, by pid (never by name). */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** A sleep duration nobody else uses, so its processes can be found by command line. */
export function uniqueSleep(): string {
  return `${300 + Math.floor(Math.random() * 600)}.${Math.floor(Math.random() * 1e6)}`;
}
