/**
 * What one run's run_shell commands may take together. Each command has its own limits (shell-runner.ts), but
 * a reply may carry 256 calls and the loop runs them at once: 24 of them once ran 1,500 processes. So a run
 * runs at most MAX_COMMANDS_AT_ONCE commands at a time (the others wait their turn, their clocks not started),
 * its commands' processes count against one limit together, and without bubblewrap (whose /tmp and /dev/shm
 * are private and capped) the memory-backed folders of the host (/dev/shm, a tmpfs /tmp) may lose no more free
 * space to the run than its temp budget: past that, the command running is stopped.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';

export const MAX_COMMANDS_AT_ONCE = 4;
/** statfs's type of a tmpfs: its files are memory. */
const TMPFS_MAGIC = 0x01021994;

export class ShellBudget {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly processes = new Map<symbol, number>();
  /** Free bytes of each memory-backed file system when the run's first command started. */
  private baseline: Promise<Map<string, number>> | null = null;

  constructor(readonly atOnce = MAX_COMMANDS_AT_ONCE) {}

  /** Waits for a turn; resolves with the function that gives it back, or rejects when `signal` aborts first. */
  async turn(signal: AbortSignal): Promise<() => void> {
    // The free space before the run's first command, so what that command writes counts too.
    await this.memoryTaken();
    if (this.running >= this.atOnce) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', stop);
          resolve();
        };
        const stop = () => {
          this.queue.splice(this.queue.indexOf(go), 1);
          reject(new Error('cancelled while waiting for its turn'));
        };
        if (signal.aborted) return reject(new Error('cancelled while waiting for its turn'));
        signal.addEventListener('abort', stop, { once: true });
        this.queue.push(go);
      });
    } else this.running++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    };
  }

  /** One command's process count now; the run's total. */
  count(command: symbol, processes: number): number {
    this.processes.set(command, processes);
    let total = 0;
    for (const n of this.processes.values()) total += n;
    return total;
  }

  forget(command: symbol): void {
    this.processes.delete(command);
  }

  /** Commands whose processes are counted now. */
  get commands(): number {
    return this.processes.size;
  }

  /** Bytes the host's memory-backed folders lost since the run's first command (the most of any of them). */
  async memoryTaken(): Promise<number> {
    this.baseline ??= memoryFolders().then(
      async (dirs) => new Map(await Promise.all(dirs.map(async (d) => [d, await freeBytes(d)] as [string, number]))),
    );
    let most = 0;
    for (const [dir, atStart] of await this.baseline) most = Math.max(most, atStart - (await freeBytes(dir)));
    return most;
  }
}

async function freeBytes(dir: string): Promise<number> {
  const s = await fs.statfs(dir).catch(() => null);
  return s ? s.bavail * s.bsize : 0;
}

/** /dev/shm, /dev (root may write there) and the temp folder, where they are tmpfs (memory). */
async function memoryFolders(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of new Set(['/dev/shm', '/dev', tmpdir()])) {
    const s = await fs.statfs(dir).catch(() => null);
    if (s && s.type === TMPFS_MAGIC) found.push(dir);
  }
  return found;
}
