/**
 * PATH for an app opened from Finder, a dock or a desktop menu: such a launch gets the system's bare PATH
 * (`/usr/bin:/bin:/usr/sbin:/sbin` on macOS), without Homebrew, nvm or ~/.local/bin, so MCP stdio servers
 * (`npx …`) and outside agents fail to start. As VS Code does, the user's login shell is asked once at start
 * (`$SHELL -ilc`), and only its PATH is taken; the rest of that environment is never read. Its folders come
 * first, then any of the current PATH it lacks. A shell that hangs or fails leaves PATH as it was.
 */
import { spawn } from 'node:child_process';

export interface LoginPathOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  /** Started from a terminal (stdout is a TTY): the environment is already the shell's. */
  readonly fromTerminal: boolean;
  readonly timeoutMs?: number;
}

const MARK = '__PARALLAX_PATH__';

/** Current PATH, then the login shell's folders put first (without repeats). */
export function mergePaths(loginPath: string, current: string, delimiter = ':'): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [...loginPath.split(delimiter), ...current.split(delimiter)]) {
    if (dir && !seen.has(dir)) {
      seen.add(dir);
      out.push(dir);
    }
  }
  return out.join(delimiter);
}

/** The PATH the shell printed between the markers (rc files may print banners around it), or null. */
export function parseShellOutput(stdout: string): string | null {
  const start = stdout.indexOf(MARK);
  const end = stdout.indexOf(MARK, start + MARK.length);
  if (start < 0 || end < 0) return null;
  const value = stdout.slice(start + MARK.length, end).trim();
  return value.includes('/') ? value : null;
}

/**
 * The PATH to use, or null to keep the current one (Windows, a terminal launch, no usable shell, or the shell
 * did not answer in time). Never throws.
 */
export function resolveLoginPath(options: LoginPathOptions): Promise<string | null> {
  const { env, platform } = options;
  if (platform === 'win32' || options.fromTerminal) return Promise.resolve(null);
  const shell = env.SHELL && env.SHELL.startsWith('/') ? env.SHELL : platform === 'darwin' ? '/bin/zsh' : null;
  if (!shell) return Promise.resolve(null);
  return new Promise((resolve) => {
    let stdout = '';
    let done = false;
    const finish = (value: string | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(value === null ? null : mergePaths(value, env.PATH ?? ''));
    };
    let child: ReturnType<typeof spawn>;
    try {
      // printf, not echo: the value is printed as it is. Interactive (-i) so .zshrc/.bashrc run as in a terminal.
      child = spawn(shell, ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`], {
        env: { ...env, PARALLAX_RESOLVING_SHELL_ENV: '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
      });
    } catch {
      return resolve(null);
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      finish(null);
    }, options.timeoutMs ?? 10_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > 1_000_000) finish(null);
    });
    child.on('error', () => finish(null));
    child.on('close', () => finish(parseShellOutput(stdout)));
  });
}
