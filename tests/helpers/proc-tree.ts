/**
 * Processes as /proc shows them (Linux), for tests that kill a host and check that nothing it started
 * survives: descendants by parent pid, processes carrying a marker in their environment, and whether a
 * process seen earlier is still the same one (its start time, so a reused pid does not count). The reading
 * itself is the product's (electron/engine/sandbox/process-sweep.ts), so the tests and the sweep agree.
 */
import { readFileSync } from 'node:fs';
import { hasMarker, procEntry, procProcesses, type ProcessEntry } from '../../electron/engine/sandbox/process-sweep.js';

export interface ProcInfo extends ProcessEntry {
  /** The command name (/proc/N/comm), e.g. "node". */
  readonly comm: string;
}

function withComm(p: ProcessEntry): ProcInfo {
  let comm = '';
  try {
    comm = readFileSync(`/proc/${p.pid}/comm`, 'utf8').trim();
  } catch {
    /* gone meanwhile */
  }
  return { ...p, comm };
}

export function processes(): ProcInfo[] {
  return procProcesses().map(withComm);
}

/** Every living descendant of `root`. */
export function descendants(root: number): ProcInfo[] {
  const all = procProcesses();
  const found = new Map<number, ProcessEntry>();
  let frontier = new Set([root]);
  while (frontier.size > 0) {
    const next = new Set<number>();
    for (const p of all) {
      if (!frontier.has(p.ppid) || found.has(p.pid)) continue;
      found.set(p.pid, p);
      next.add(p.pid);
    }
    frontier = next;
  }
  return [...found.values()].map(withComm);
}

/** Living processes whose environment holds NAME=VALUE (the launchers' PARALLAX_HOST_PID marks workers). */
export function withEnv(name: string, value: string): ProcInfo[] {
  return procProcesses()
    .filter((p) => hasMarker(p.pid, `${name}=${value}`))
    .map(withComm);
}

/** Those of `seen` that are still alive (same pid, same start time). */
export function survivors(seen: Iterable<ProcInfo>): ProcInfo[] {
  return [...seen].filter((p) => procEntry(p.pid)?.start === p.start);
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
