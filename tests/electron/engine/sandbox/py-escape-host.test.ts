/**
 * Past the Python wall, in both configurations (bubblewrap, and none through PARALLAX_SANDBOX=off, where an
 * empty network namespace by unshare still walls off the network; and once with no namespace at all): what a
 * program that fully escaped into the child's JavaScript reaches (Node's permission model must refuse the
 * user's files, /proc, writes, processes and addons on every OS), and what the host does with whatever such a
 * child sends (fake protocol lines, 4 MB of "output", a line without end, calls out of turn). The probe and
 * the hostile child run in the Pyodide child's place, started with its exact command, flags and sandbox.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEntry, pythonLaunch, type PyLaunch } from '../../../../electron/engine/sandbox/python/py-launch.js';
import { loadPythonRuntime } from '../../../../electron/engine/sandbox/python/py-runtime.js';
import { detectShellSandbox, type ShellSandboxInfo } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { expectedContainment, PY_CONFIGS, pyHarness } from './py-helpers.js';

const SECRET = 'TOP-SECRET-3141';

/** The child's launch with its entry replaced by a test script, copied where the child may read (its own folder). */
function launchOf(sandbox: ShellSandboxInfo, script: string, extra: readonly string[]): PyLaunch {
  const launch = pythonLaunch({ sandbox });
  const copy = join(path.dirname(childEntry().file), `test-${script}`);
  copyFileSync(fileURLToPath(new URL(`./${script}`, import.meta.url)), copy);
  return { ...launch, args: [...launch.args.slice(0, -1), copy, ...extra] };
}

let root: string;
let server: Server;
let port = 0;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'parallax-py-host-')));
  await writeFile(join(root, 'secret.txt'), SECRET);
  // The probe drops its connection at once, so the greeting may meet a reset: that is the probe's doing, not a fault.
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(root, { recursive: true, force: true });
});

/** What the escape probe, started as the child would be in `sandbox`, could reach (its last line, parsed). */
async function probe(
  sandbox: ShellSandboxInfo,
  canary: string,
  appFile: string,
): Promise<{ launch: PyLaunch; seen: Record<string, string> }> {
  const launch = launchOf(sandbox, 'py-escape-probe.mjs', [
    join(root, 'secret.txt'),
    canary,
    appFile,
    String(process.pid),
    String(port),
  ]);
  const child = spawn(launch.command, launch.args, { env: launch.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  await new Promise((resolve) => child.on('exit', resolve));
  const seen = JSON.parse(out.trim().split('\n').pop() || 'null') as Record<string, string> | null;
  expect(seen, err).not.toBeNull();
  return { launch, seen: seen! };
}

describe.each(PY_CONFIGS)('past the Python wall, $name', ({ sandbox }) => {
  it("the child's JavaScript makes no code, and opens no file, /proc entry, process, addon, binding or network of the host", async () => {
    const canary = join(root, 'canary.txt');
    const appFile = fileURLToPath(new URL('./py-escape-written.txt', import.meta.url));
    const { launch, seen } = await probe(sandbox, canary, appFile);
    expect(launch.containment).toBe(expectedContainment(sandbox));
    expect(seen.functionConstructor).toBe('refused: EvalError');
    expect(seen.evalCall).toBe('refused: EvalError');
    expect(seen.env).toBe('(empty)');
    // Node's permission model, whatever the OS offers: the same answer with and without bubblewrap.
    for (const key of [
      'readSecret',
      'listRoot',
      'hostEnviron',
      'selfEnviron',
      'writeCanary',
      'writeAppCode',
      'childProcess',
      'nativeAddon',
      'processBinding',
      'workerRead',
    ]) {
      expect(seen![key], key).toMatch(/^refused: /);
    }
    expect(seen.readSecret).toBe('refused: ERR_ACCESS_DENIED');
    expect(seen.childProcess).toBe('refused: ERR_ACCESS_DENIED');
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(appFile)).toBe(false);
    // Node 20's permission model has no network rule: an empty network namespace (bubblewrap's, or unshare's
    // where bubblewrap is missing) refuses it; where neither can be made, the launch says 'process'.
    if (launch.containment === 'process') expect(seen.network).toBe('ok: connected');
    else expect(seen.network).toMatch(/^refused: /);
  });

  describe('the host keeps the protocol whatever the child sends', () => {
    const run = async (mode: string) => {
      const h = await pyHarness({ sandbox, launch: () => launchOf(sandbox, 'py-hostile-child.mjs', [mode]) });
      try {
        // A long time limit: only the host's protocol checks may end these programs, however loaded the machine.
        const result = await h.run('print(1)', { limits: { timeoutMs: 120_000 } });
        const processes = h.sandbox.processesStarted;
        await h.run('print(2)', { limits: { timeoutMs: 120_000 } });
        return { result, processes, after: h.sandbox.processesStarted };
      } finally {
        await h.close();
      }
    };

    it('4 MB of output in messages each under the cap: the output limit, with no more than the cap kept', async () => {
      const { result, processes, after } = await run('flood');
      expect(result.output.length).toBeLessThanOrEqual(4000);
      expect(result.limitHit).toBe('output');
      expect(result.error!.message).toMatch(
        /^OutputLimit: output limit of 4000 characters exceeded — the program was stopped/,
      );
      expect(after).toBe(processes + 1); // the child was replaced
    });

    it('output after the child said it was truncated ends the program', async () => {
      const { result } = await run('after-truncated');
      expect(result.output).not.toContain('SMUGGLED');
      expect(result.limitHit).toBe('output');
    });

    it('a line that is not a protocol message ends the program with a clear error, never read as output', async () => {
      const { result, processes, after } = await run('fake-lines');
      expect(result.output).toBe('honest start\n');
      expect(result.error!.message).toMatch(
        /^SandboxError: the sandbox process broke its protocol \(it wrote a line that is not a protocol message/,
      );
      expect(after).toBe(processes + 1);
    });

    it('a line without end past 16 MiB ends the program (no unbounded buffer)', async () => {
      const { result } = await run('long-line');
      expect(result.error!.message).toMatch(/broke its protocol \(it wrote a line longer than 16 MiB\)/);
    });

    it('a second tool call while one is pending ends the program', async () => {
      const { result } = await run('calls');
      expect(result.error!.message).toMatch(/broke its protocol \(a second tool call while one was pending\)/);
    });
  });
});

describe('the seal', () => {
  it("leaves no JavaScript proxy among the garbage collector's objects (the finder's jsproxies emptied too)", async () => {
    let left: string[] | null = null;
    await loadPythonRuntime(
      { onCall: () => '{"ok":true}', onOutput: () => undefined },
      { beforeLock: (found) => (left = found) },
    );
    expect(left).toEqual([]);
  });
});

describe('past the Python wall where no namespace can be made either (Windows, a container that forbids them)', () => {
  it('the files stay refused by Node, and the network is reachable: the launch says so', async () => {
    const sandbox: ShellSandboxInfo = { ...detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } }), unshare: null };
    const { launch, seen } = await probe(
      sandbox,
      join(root, 'canary-bare.txt'),
      fileURLToPath(new URL('./py-escape-written.txt', import.meta.url)),
    );
    expect(launch.containment).toBe('process');
    expect(seen.readSecret).toBe('refused: ERR_ACCESS_DENIED');
    expect(seen.childProcess).toBe('refused: ERR_ACCESS_DENIED');
    expect(seen.network).toBe('ok: connected');
  });
});
