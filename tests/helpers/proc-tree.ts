/**
 * Processes as /proc shows them (Linux), for tests that kill a host and check that nothing it started
 * survives: descendants by parent pid, processes carrying a marker in their environment, and whether a
 * process seen earlier is still the same one (its start time, so a reused pid does not count).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** Start time in clock ticks since boot: with the pid, names one process. */
  readonly start: string;
  readonly comm: string;
}

function stat(pid: number): ProcInfo | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is the state; a zombie has ended (its parent has not reaped it yet).
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19], comm };
  } catch {
    return null;
  }
}

export function processes(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = stat(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** Every living descendant of `root`. */
export function descendants(root: number): ProcInfo[] {
  const all = processes();
  const found = new Map<number, ProcInfo>();
  let frontier = [root];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const p of all) {
      if (!frontier.includes(p.ppid) || found.has(p.pid)) continue;
      found.set(p.pid, p);
      next.push(p.pid);
    }
    frontier = next;
  }
  return [...found.values()];
}

/** Living processes whose environment holds NAME=VALUE (the launchers' PARALLAX_HOST_PID marks workers). */
export function withEnv(name: string, value: string): ProcInfo[] {
  const needle = `${name}=${value}`;
  return processes().filter((p) => {
    try {
      return readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(needle);
    } catch {
      return false;
    }
  });
}

/** Those of `seen` that are still alive (same pid, same start time). */
export function survivors(seen: Iterable<ProcInfo>): ProcInfo[] {
  return [...seen].filter((p) => stat(p.pid)?.start === p.start);
}

/** Waits until none of `seen` is alive; returns the ones still alive at the deadline. */
export async function waitGone(seen: Iterable<ProcInfo>, ms: number): Promise<ProcInfo[]> {
  const list = [...seen];
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = survivors(list);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function describe(p: ProcInfo): string {
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 160);
  } catch {
    /* gone */
  }
  return `${p.pid} (parent ${p.ppid}) ${cmd || p.comm}`;
}
