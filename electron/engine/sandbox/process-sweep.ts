/**
 * Ends a command's whole process tree where no PID namespace does it for us (no bubblewrap: Linux without it,
 * macOS, PARALLAX_SANDBOX=off). A process belongs to the command when it descends from the command's shell,
 * shares the command's session, group or any session seen in its tree, or (Linux) carries the command's
 * marker variable in its environment. `setsid -f`, a double fork and `nohup … &` all keep at least one of
 * these. What escapes the sweep: a process that clears its environment AND leaves the session AND is
 * orphaned before a poll sees it (`env -i setsid -f …`); only an OS sandbox takes that one down, which is
 * why run_shell asks before each command there.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Name of the marker variable each command's processes inherit. */
export const SWEEP_MARKER = 'PARALLAX_SHELL_RUN';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** Session id; -1 where unknown (ps on macOS). */
  readonly sid: number;
  /** When it started, in the system's own unit; with the pid it names one process (pids are reused). */
  readonly start: string;
}

export type ProcessLister = () => ProcessEntry[];

/** Linux: /proc/N/stat of every process. */
export function procProcesses(): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = procEntry(Number(name));
    if (entry) out.push(entry);
  }
  return out;
}

/** Linux: one process from /proc/N/stat; null when it is gone or a zombie. */
export function procEntry(pid: number): ProcessEntry | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name is in parentheses and may itself hold spaces or parentheses: split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null; // a zombie only waits to be reaped
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]), start: fields[19] };
}

/** Other systems: POSIX ps (pid, parent, group; no session). */
export function psProcesses(): ProcessEntry[] {
  const ps = spawnSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid=', '-o', 'lstart='], {
    encoding: 'utf8',
    env: { PATH: '/bin:/usr/bin', LC_ALL: 'C' },
    timeout: 5000,
  });
  if (ps.status !== 0) return [];
  const out: ProcessEntry[] = [];
  for (const line of ps.stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*\S)\s*$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), sid: -1, start: m[4] });
  }
  return out;
}

/** Linux: whether process `pid` carries `marker` (NAME=value) in its environment. */
export function hasMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker);
  } catch {
    return false;
  }
}

export interface ProcessSweepOptions {
  /** `NAME=value` every process of the command inherits (Linux only); null: none. */
  readonly marker: string | null;
  readonly list?: ProcessLister;
}

/** The processes of one command, as far as can be seen from outside; `observe` while it runs, `endAll` at the end. */
export class ProcessSweep {
  private readonly known = new Map<number, string>();
  private readonly groups = new Set<number>();
  private readonly sessions = new Set<number>();
  private readonly list: ProcessLister;
  private readonly ownGroup: number;
  private readonly ownSession: number;
  private rootStart: string | null = null;

  constructor(
    private readonly rootPid: number,
    private readonly options: ProcessSweepOptions,
  ) {
    this.list = options.list ?? (process.platform === 'linux' ? procProcesses : psProcesses);
    this.groups.add(rootPid);
    this.sessions.add(rootPid);
    const self = process.platform === 'linux' ? procEntry(process.pid) : null;
    this.ownGroup = self?.pgid ?? -1;
    this.ownSession = self?.sid ?? -1;
  }

  /** Adds every process that now belongs to the command; returns the live ones. */
  observe(): ProcessEntry[] {
    const all = this.list();
    const root = all.find((p) => p.pid === this.rootPid);
    if (root && this.rootStart === null) this.rootStart = root.start;
    const linuxStart = (p: ProcessEntry): boolean =>
      this.rootStart === null || Number(p.start) >= Number(this.rootStart);
    const byPid = new Map(all.map((p) => [p.pid, p]));
    const belongs = (p: ProcessEntry): boolean => {
      if (p.pid === process.pid || p.pid <= 1) return false;
      if (this.known.get(p.pid) === p.start) return true;
      if (this.known.has(p.pid)) return false; // the pid was reused by another process
      if (p.pid === this.rootPid) return true;
      // A process of our own host shares neither its group nor its session with the command's (detached) shell.
      if (p.pgid !== this.ownGroup && this.groups.has(p.pgid)) return true;
      if (p.sid > 0 && p.sid !== this.ownSession && this.sessions.has(p.sid)) return true;
      if (this.options.marker && process.platform === 'linux' && linuxStart(p) && hasMarker(p.pid, this.options.marker))
        return true;
      return false;
    };
    // Parents before children is not guaranteed by the listing: repeat until nothing new joins.
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of all) {
        if (this.known.get(p.pid) === p.start) continue;
        const parent = byPid.get(p.ppid);
        const fromParent =
          parent !== undefined && this.known.get(parent.pid) === parent.start && !this.known.has(p.pid);
        if (fromParent || belongs(p)) {
          this.known.set(p.pid, p.start);
          this.groups.add(p.pgid);
          if (p.sid > 0) this.sessions.add(p.sid);
          grew = true;
        }
      }
    }
    return all.filter((p) => this.known.get(p.pid) === p.start);
  }

  /**
   * SIGKILL everything that belongs to the command, again and again until a look finds nothing alive. The
   * root goes last: while it lives (the subreaper) every orphan is still its descendant, found by the walk.
   */
  endAll(): number {
    let killed = 0;
    for (let round = 0; round < 100; round++) {
      const live = this.observe();
      if (live.length === 0) return killed;
      const others = live.filter((p) => p.pid !== this.rootPid);
      for (const p of others.length > 0 ? others : live) {
        try {
          process.kill(p.pid, 'SIGKILL');
          killed++;
        } catch {
          /* gone meanwhile, or not ours to kill */
        }
      }
    }
    return killed;
  }
}
