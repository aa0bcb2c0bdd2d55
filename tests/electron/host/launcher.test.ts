/**
 * The worker's environment, attacked from outside as any process of the user could (and as an unsandboxed
 * run_shell could): read /proc/<worker>/environ and look for what the host had.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import { forkLauncher, scriptStart, WORKER_V8_FLAGS, workerEnvironment } from '../../../electron/host/launcher.js';
import { SYNTHETIC_WORKER } from '../../helpers/synthetic-worker-path.js';

describe('workerEnvironment', () => {
  it('keeps the locale, time zone, PATH and CA settings; drops keys, tokens, NODE_OPTIONS and the real HOME', () => {
    const env = workerEnvironment(
      {
        PATH: '/usr/bin',
        LANG: 'de_DE.UTF-8',
        TZ: 'Europe/Berlin',
        NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
        OPENAI_API_KEY: 'sk',
        AWS_SECRET_ACCESS_KEY: 'a',
        PARALLAX_ANY: 'x',
        NODE_OPTIONS: '--require x',
        HOME: '/home/me',
        SSH_AUTH_SOCK: '/run/ssh',
      },
      'linux',
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      LANG: 'de_DE.UTF-8',
      TZ: 'Europe/Berlin',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      HOME: tmpdir(),
      PARALLAX_HOST_PID: String(process.pid),
    });
  });

  it("keeps the OS sandbox switch, so the worker's sandboxes follow the host's PARALLAX_SANDBOX=off", () => {
    expect(workerEnvironment({ PARALLAX_SANDBOX: 'off', PARALLAX_ANY: 'x' }, 'linux')).toEqual({
      PARALLAX_SANDBOX: 'off',
      HOME: tmpdir(),
      PARALLAX_HOST_PID: String(process.pid),
    });
  });

  it('on Windows matches names whatever their case and keeps what Node needs there', () => {
    const env = workerEnvironment(
      { Path: 'C:\\\\Windows', SystemRoot: 'C:\\\\Windows', OPENAI_API_KEY: 'sk', USERPROFILE: 'C:\\\\Users\\\\me' },
      'win32',
    );
    expect(env).toEqual({
      Path: 'C:\\\\Windows',
      SystemRoot: 'C:\\\\Windows',
      USERPROFILE: tmpdir(),
      PARALLAX_HOST_PID: String(process.pid),
    });
  });
});

describe('forkLauncher', () => {
  it("cat /proc/<worker>/environ finds none of the host's secrets, only the allowlist", async () => {
    const canary = `canary-${Math.random().toString(36).slice(2)}`;
    const launcher = forkLauncher({ entry: SYNTHETIC_WORKER, args: ['--events', '3', '--then', 'hang'] });
    const handle = launcher.launch({
      name: 'env-test',
      env: {
        ...process.env,
        OPENAI_API_KEY: canary,
        MY_SERVICE_PASSWORD: canary,
        PARALLAX_CANARY: canary,
        NODE_OPTIONS: `--title=${canary}`,
      },
    });
    const exited = new Promise<void>((resolve) => handle.onExit(() => resolve()));
    const ready = new Promise<void>((resolve) => handle.onMessage((m) => m.type === 'ready' && resolve()));
    handle.send({
      type: 'init',
      apiKey: canary,
      spec: {
        runId: 'env-test',
        task: { id: null, text: 'x' },
        mode: 'react',
        apiKeyEnv: null,
        settings: DEFAULT_SETTINGS,
        workspace: tmpdir(),
        provider: { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', simulated: false },
      },
    });
    await ready;
    try {
      const environ = (await readFile(`/proc/${handle.pid}/environ`, 'utf8')).split('\0').filter(Boolean);
      const names = environ.map((line) => line.slice(0, line.indexOf('=')));
      expect(environ.join('\n')).not.toContain(canary);
      expect(names).toContain('HOME');
      for (const name of names)
        expect(
          [
            'PATH',
            'LANG',
            'LANGUAGE',
            'TZ',
            'TMPDIR',
            'HOME',
            'NODE_EXTRA_CA_CERTS',
            'SSL_CERT_FILE',
            'SSL_CERT_DIR',
            'NODE_CHANNEL_FD',
            'NODE_CHANNEL_SERIALIZATION_MODE',
            'PARALLAX_HOST_PID',
            'PARALLAX_WORKER_HINTS',
          ].includes(name) || name.startsWith('LC_'),
        ).toBe(true);
      const cmdline = (await readFile(`/proc/${handle.pid}/cmdline`, 'utf8')).split('\0');
      expect(cmdline.join(' ')).not.toContain(canary);
      // The V8 flags that keep a worker's peak memory down (launcher.ts WORKER_V8_FLAGS) reach the process.
      for (const flag of WORKER_V8_FLAGS) expect(cmdline).toContain(flag);
    } finally {
      handle.kill();
      await exited;
    }
  });
});

describe('scriptStart', () => {
  it("starts the worker bundle's CommonJS twin through run-cached.js only when the build put both beside it", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-script-start-'));
    try {
      const entry = join(dir, 'worker-main.js');
      await writeFile(entry, '');
      expect(scriptStart(entry)).toEqual({ file: entry, args: [] });
      await writeFile(join(dir, 'worker-main.cjs'), '');
      expect(scriptStart(entry)).toEqual({ file: entry, args: [] });
      await writeFile(join(dir, 'run-cached.js'), '');
      expect(scriptStart(entry)).toEqual({ file: join(dir, 'run-cached.js'), args: [join(dir, 'worker-main.cjs')] });
      // Any other entry (a test's synthetic worker, the sources under tsx) is started as it is.
      expect(scriptStart(SYNTHETIC_WORKER)).toEqual({ file: SYNTHETIC_WORKER, args: [] });
      expect(scriptStart(join(dir, 'worker-main.ts'))).toEqual({ file: join(dir, 'worker-main.ts'), args: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
