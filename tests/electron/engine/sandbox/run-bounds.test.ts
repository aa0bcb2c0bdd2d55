/**
 * What one model reply can take of the machine, in both Linux configurations (bubblewrap, and the OS sandbox
 * switched off as without it): memory in /dev and /tmp, processes, and commands at once, for the run as a whole
 * and not only per command. The reply is the attack: many run_shell calls at once, each as large as it may be.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { detectShellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import type { ShellResult } from '../../../../electron/engine/tools/run-shell.js';
import { contextFor, tempWorkspace, type TempWorkspace } from '../tools/helpers.js';

type Tools = typeof import('../../../../electron/engine/tools/index.js');
const linux = process.platform === 'linux';
const bubblewrapHere = linux && detectShellSandbox({ switchedOff: false }).kind === 'bubblewrap';
const MB = 1024 * 1024;
/** A sandbox's /dev/shm, and the commands of one run at once (shell-sandbox.ts SHM_BYTES, shell-budget.ts MAX_COMMANDS_AT_ONCE). */
const SHM_BYTES = 16 * MB;
const MAX_COMMANDS_AT_ONCE = 4;

const CONFIGS = [
  { name: 'with bubblewrap', switchValue: '', contained: true, available: bubblewrapHere },
  {
    name: 'with the OS sandbox switched off (PARALLAX_SANDBOX=off, as without bubblewrap)',
    switchValue: 'off',
    contained: false,
    available: linux,
  },
] as const;

describe.each(CONFIGS)("one run's commands together, $name", ({ switchValue, contained, available }) => {
  let tools: Tools;
  let ws: TempWorkspace;
  const token = `px-bounds-${process.pid}-${switchValue || 'bwrap'}`;

  beforeAll(async () => {
    if (!available) return;
    const saved = process.env.PARALLAX_SANDBOX;
    process.env.PARALLAX_SANDBOX = switchValue;
    vi.resetModules();
    tools = await import('../../../../electron/engine/tools/index.js');
    // Detected now, while the switch is as this configuration sets it.
    (await import('../../../../electron/engine/sandbox/shell-sandbox.js')).shellSandbox();
    if (saved === undefined) delete process.env.PARALLAX_SANDBOX;
    else process.env.PARALLAX_SANDBOX = saved;
  });
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => {
    ws.cleanup();
    for (const dir of ['/dev/shm', '/dev'])
      for (const name of readdirSync(dir)) if (name.startsWith(token)) rmSync(`${dir}/${name}`, { force: true });
  });

  /** One reply's calls, run as the loop runs them: all at once, in one run (one workspace, one context). */
  const reply = (commands: readonly string[]) => {
    const ctx = contextFor(ws.root);
    return Promise.all(
      commands.map(
        (command) => tools.invokeTool(tools.findTool('run_shell')!, { command }, ctx) as Promise<ShellResult>,
      ),
    );
  };
  const shmBytes = () =>
    readdirSync('/dev/shm')
      .filter((n) => n.startsWith(token))
      .reduce((n, f) => n + statSync(`/dev/shm/${f}`).size, 0);

  it.runIf(available)(
    'fills /dev/shm and /dev: a command holds little there, and the run as a whole no more than its temp budget',
    async () => {
      const fill = (i: number) =>
        `head -c ${200 * MB} /dev/zero > /dev/shm/${token}-${i} 2>/dev/null; head -c ${50 * MB} /dev/zero > /dev/${token}-${i} 2>/dev/null; wc -c < /dev/shm/${token}-${i}; wc -c < /dev/${token}-${i} 2>/dev/null || echo none`;
      const results = await reply([0, 1, 2, 3, 4, 5].map(fill));
      if (contained) {
        for (const r of results) {
          const [shm, dev] = r.stdout.trim().split('\n');
          expect(Number(shm)).toBeLessThanOrEqual(SHM_BYTES); // a private /dev/shm of 16 MB
          expect(dev, r.stdout + r.stderr).toBe('none'); // /dev itself is read-only
        }
        expect(shmBytes()).toBe(0); // nothing reached the host's /dev/shm
      } else {
        // The host's /dev/shm: no file past the temp budget (64 MB), and once the run holds more, its commands are stopped.
        for (const r of results) expect(Number(r.stdout.trim().split('\n')[0] || 0)).toBeLessThanOrEqual(64 * MB);
        // The commands in flight when the run passed its budget may each finish a file (64 MB at most); none after them.
        expect(shmBytes()).toBeLessThanOrEqual((MAX_COMMANDS_AT_ONCE + 1) * 64 * MB);
        const more = await reply([`head -c ${10 * MB} /dev/zero > /dev/shm/${token}-late; sleep 1; echo done`]);
        expect(more[0]!.stderr).toMatch(
          /the run's commands hold more than 64 MB in memory-backed folders \(\/dev\/shm, \/dev, a tmpfs \/tmp\), so this command was not run/,
        );
      }
    },
  );

  it.runIf(available)('24 calls in one reply: at most a few run at once, the others wait their turn', async () => {
    const results = await reply(
      Array.from(
        { length: 24 },
        (_, i) => `echo "s ${i}" >> ${ws.root}/log; sleep 0.3; echo "e ${i}" >> ${ws.root}/log; echo ok`,
      ),
    );
    expect(results.every((r) => r.stdout === 'ok\n')).toBe(true);
    const { readFileSync } = await import('node:fs');
    let open = 0;
    let most = 0;
    for (const line of readFileSync(`${ws.root}/log`, 'utf8').trim().split('\n')) {
      open += line.startsWith('s ') ? 1 : -1;
      most = Math.max(most, open);
    }
    expect(most).toBeLessThanOrEqual(MAX_COMMANDS_AT_ONCE);
  });

  it.runIf(available)(
    "8 calls of 60 background processes each: the run's processes together stay under its limit",
    async () => {
      const results = await reply(
        Array.from({ length: 8 }, () => 'for i in $(seq 60); do sleep 3 & done; wait; echo finished'),
      );
      // Four commands of 61 processes at once pass the run's 128: commands are stopped, saying why.
      const stopped = results.filter((r) =>
        /killed: the command started more than 128 processes, or the run's commands together had more \(they share that limit\)/.test(
          r.stderr,
        ),
      );
      expect(stopped.length).toBeGreaterThan(0);
    },
  );
});
