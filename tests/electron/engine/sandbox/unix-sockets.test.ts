/**
 * run_shell against a Unix socket of the user (as an ssh-agent, docker.sock or D-Bus listens), in both Linux
 * configurations. A network namespace does not cover Unix sockets in the file system: with bubblewrap the socket
 * is not there at all; without it the command reaches it, and what the run records and run_shell's approval say so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultApprovalPolicy } from '../../../../shared/approval.js';
import { detectShellSandbox, type ShellSandboxInfo } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import type { ShellResult } from '../../../../electron/engine/tools/run-shell.js';
import { contextFor, tempWorkspace } from '../tools/helpers.js';

type Tools = typeof import('../../../../electron/engine/tools/index.js');
const linux = process.platform === 'linux';
const bubblewrapHere = linux && detectShellSandbox({ switchedOff: false }).kind === 'bubblewrap';

describe.each([
  { name: 'with bubblewrap', switchValue: '', contained: true, available: bubblewrapHere },
  {
    name: 'with the OS sandbox switched off (PARALLAX_SANDBOX=off, as without bubblewrap)',
    switchValue: 'off',
    contained: false,
    available: linux,
  },
])('run_shell and a Unix socket of the user, $name', ({ switchValue, contained, available }) => {
  let tools: Tools;
  let info: ShellSandboxInfo;
  const cleanup: (() => void)[] = [];
  beforeAll(async () => {
    if (!available) return;
    const saved = process.env.PARALLAX_SANDBOX;
    process.env.PARALLAX_SANDBOX = switchValue;
    vi.resetModules();
    tools = await import('../../../../electron/engine/tools/index.js');
    info = (await import('../../../../electron/engine/sandbox/shell-sandbox.js')).shellSandbox();
    if (saved === undefined) delete process.env.PARALLAX_SANDBOX;
    else process.env.PARALLAX_SANDBOX = saved;
  });
  afterEach(() => cleanup.splice(0).forEach((f) => f()));

  it.runIf(available)(
    "curl --unix-socket to an agent's socket outside the workspace: unreachable with bubblewrap; otherwise reached, and said",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'parallax-agent-sock-'));
      const socket = join(dir, 'agent.sock');
      let connections = 0;
      const server: Server = createServer((c) => {
        connections++;
        c.end('HTTP/1.0 200 OK\r\n\r\nreached-the-agent');
      });
      await new Promise<void>((r) => server.listen(socket, r));
      const ws = tempWorkspace();
      cleanup.push(
        () => server.close(),
        () => rmSync(dir, { recursive: true, force: true }),
        () => ws.cleanup(),
      );
      const result = (await tools.invokeTool(
        tools.findTool('run_shell')!,
        { command: `curl -s -m 3 --unix-socket ${socket} http://x/ || echo no-socket` },
        contextFor(ws.root),
      )) as ShellResult;
      if (contained) {
        expect(result.stdout).toContain('no-socket');
        expect(connections).toBe(0);
      } else {
        expect(result.stdout).toContain('reached-the-agent');
        // What the run records of run_shell says so, and run_shell asks before each command here.
        expect(info.reason).toMatch(
          /Unix sockets in the file system \(an ssh-agent, docker\.sock, D-Bus\) stay reachable|run unsandboxed, as you/,
        );
        if (info.unshare) expect(info.reason).not.toMatch(/reach no host or service(?! over the network)/);
        expect(defaultApprovalPolicy({ shellSandbox: info.kind, userFolder: false }).run_shell).toBe('ask');
      }
    },
  );
});
