/**
 * Which env variables a command from a page or a suite file (an MCP stdio server, an agent column) may be
 * given: an allowlist. Any name a program's interpreter reads can make an allowed program run other code
 * (PYTHONWARNINGS=ignore::antigravity.x with BROWSER="sh -c …" runs a shell from Python; PERLLIB, SHELLOPTS +
 * PS4, BASH_FUNC_*%%, GCONV_PATH, OPENSSL_CONF, JDK_JAVA_OPTIONS …), and such names cannot all be listed. So:
 * - a name read by a loader or an interpreter (the known families below) is refused wherever the command comes
 *   from, with the reader named;
 * - a key or token variable (a name ending in _API_KEY, _KEY, _TOKEN or _SECRET) passes: programs read these as
 *   data, never as code;
 * - any other name passes only when someone who runs the host named it: `parallax serve --allow-env NAME`,
 *   `parallax suite run --allow-env NAME`, or the user in the desktop dialog, which shows its value.
 * The CLI's own `--mcp FILE` and `--variants FILE` are the user's and are taken as given.
 */

/** A key or token variable: data for the program, read by no interpreter. */
const KEY_NAME = /^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*_(API_KEY|KEY|TOKEN|SECRET)$/i;

/** Families of names that choose which program or code runs, each with who reads them (for the message). */
const READERS: readonly (readonly [RegExp, string])[] = [
  [
    /^(PATH|HOME|XDG_\w+|TMPDIR|IFS|CDPATH|ENV|BASH_ENV|BASHOPTS|SHELLOPTS|PS[0-4]|GLOBIGNORE|BASH_FUNC_.*|BASH_XTRACEFD)$/i,
    'the shell (which runs or finds other code through it)',
  ],
  [
    /^(LD_\w+|DYLD_\w+|GCONV_PATH|GLIBC_TUNABLES|MALLOC_\w+|LOCPATH|NLSPATH|HOSTALIASES|RES_OPTIONS|LOCALDOMAIN|TZDIR)$/i,
    'the C library and the dynamic loader',
  ],
  [/^PYTHON\w*$|^BROWSER$|^(PIP|UV|CONDA|POETRY|PIPX)_\w+$|^VIRTUAL_ENV$/i, 'Python and its package tools'],
  [/^(NODE_\w+|NPM_CONFIG_\w+|YARN_\w+|PNPM_\w+|BUN_\w+|COREPACK_\w+|NVM_\w+)$/i, 'Node.js and its package managers'],
  [/^(PERL\w*|RUBY\w*|GEM_\w+|BUNDLE_\w+|LUA_\w+|PHP\w*|R_\w+)$/i, 'Perl, Ruby, Lua, PHP or R'],
  [
    /^(JAVA_\w+|_JAVA_OPTIONS|JDK_\w+|CLASSPATH|MAVEN_\w+|GRADLE_\w+|DOTNET_\w+|GO\w*|CARGO_\w+|RUST\w*)$/i,
    'Java, .NET, Go or Rust',
  ],
  [
    /^(OPENSSL_\w+|SSL_\w+|CURL_\w+|REQUESTS_CA_BUNDLE|GIT_\w+|SSH_\w+|GNUPGHOME|EDITOR|VISUAL|PAGER|TERMINFO\w*|SUDO_\w+|SHELL)$/i,
    'OpenSSL, curl, git, ssh or a program they start',
  ],
];

export interface EnvAllowance {
  /** Names the operator named (beyond the key and token variables); 'all': a dialog showing the values follows. */
  readonly allowed: ReadonlySet<string> | 'all';
  /** How this host lets a name through, for the message (e.g. "start parallax serve with --allow-env NAME"). */
  readonly how: (name: string) => string;
}

/** Why `name` may not be given to a command from a page or suite file; null when it may. */
export function refusedEnvName(name: string, allowance: EnvAllowance): string | null {
  const reader = READERS.find(([re]) => re.test(name));
  if (reader)
    return `${name} is read by ${reader[1]}, so it could make the allowed program run other code; it is never taken from a page or a suite file. Remove it, or run the command with parallax compare --mcp FILE / --variants FILE.`;
  if (allowance.allowed === 'all' || allowance.allowed.has(name) || KEY_NAME.test(name)) return null;
  return `${name} is not a key or token variable (a name ending in _API_KEY, _KEY, _TOKEN or _SECRET), the only names passed unless named, since a program's interpreter may read any other name to run code (as Python reads PYTHONWARNINGS and BROWSER). To pass it, ${allowance.how(name)}.`;
}

/** Whether the name is a key or token variable (the desktop dialog hides such values). */
export const isKeyName = (name: string): boolean => KEY_NAME.test(name) && !READERS.some(([re]) => re.test(name));

/** Throws `${owner}: env …` for the first name refused. */
export function checkEnvNames(
  owner: string,
  env: Readonly<Record<string, string>> | undefined,
  allowance: EnvAllowance,
): void {
  for (const name of Object.keys(env ?? {})) {
    const why = refusedEnvName(name, allowance);
    if (why) throw new Error(`${owner}: env ${why}`);
  }
}

/** The desktop app: the dialog that follows is where the user allows them (it shows every value but a key's). */
export const DIALOG_ALLOWANCE: EnvAllowance = { allowed: 'all', how: () => 'allow it in the dialog' };

/** `parallax serve --allow-env NAME`: the names its operator named. */
export const serveAllowance = (names: readonly string[] = []): EnvAllowance => ({
  allowed: new Set(names),
  how: (name) => `the operator can start parallax serve with --allow-env ${name}`,
});

/** One env entry for the desktop dialog: a key's value hidden, any other shown (cut, control characters escaped). */
export function envLine(name: string, value: string): string {
  if (isKeyName(name)) return `${name} (a key: value not shown)`;
  const inert = JSON.stringify(value.length > 160 ? `${value.slice(0, 160)}…` : value);
  return `${name}=${inert}${value.length > 160 ? ` (${value.length} characters)` : ''}`;
}
