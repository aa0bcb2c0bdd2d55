/**
 * CPU time (user + system) of a process and everything it starts, read from /proc (Linux only): less sensitive
 * to the machine's load than wall time, which includes every wait for a core. Per process, /proc/<pid>/stat
 * gives its threads' time, dead threads included, and its reaped children's (cutime, cstime); a child's time
 * moves into its parent's when the parent reaps it, so the sum over the live tree counts every process once.
 * The kernel reports it in clock ticks (10 ms), so a figure is a median over several runs.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime + cutime + cstime of one process, in ms; null when it is gone. */
function processCpu(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is field 14.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
          if (c) out.push(Number(c));
      } catch {
        /* the thread ended */
      }
    }
  } catch {
    /* the process ended */
  }
  return out;
}

/** CPU ms of `pid` and its live descendants now (with the reaped ones' time, through their parents). */
export function treeCpu(pid: number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    const ms = processCpu(p);
    if (ms === null) continue;
    total += ms;
    stack.push(...childrenOf(p));
  }
  return total;
}

/** Whether this machine can give the figure. */
export const cpuReadable = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Samples a process tree's CPU every `everyMs` until stopped, so the CPU spent up to a moment known only later
 * (a time read back from the record) can be read off: `at(t)` interpolates between the samples around `t`
 * (Date.now() clock).
 */
export function cpuTimeline(pid: number, everyMs = 10): { at(t: number): number; sample(): number; stop(): void } {
  const points: [number, number][] = [];
  const sample = (): number => {
    const ms = treeCpu(pid);
    // Once the root is gone, its time is its parent's (this process's children), out of reach: keep the last.
    if (ms > 0 || points.length === 0) points.push([Date.now(), ms]);
    return ms;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    sample,
    stop: () => clearInterval(timer),
    at(t) {
      let prev = points[0]!;
      for (const p of points) {
        if (p[0] >= t) return p[0] === prev[0] ? p[1] : prev[1] + ((p[1] - prev[1]) * (t - prev[0])) / (p[0] - prev[0]);
        prev = p;
      }
      return prev[1];
    },
  };
}
