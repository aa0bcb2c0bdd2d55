/**
 * Which folders an agent column's program may be shown read-only, and which it needs: the project root of its
 * script (the nearest folder above it holding package.json, pyproject.toml, requirements.txt, .venv or .git),
 * the node_modules folders a monorepo hoists above it, and the packages its node_modules links to elsewhere.
 * Never the file system's root, the home folder, the temp folder (other runs' workspaces), a folder of keys
 * or Parallax's own data, nor a folder holding one of them.
 */
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { AgentShownPath } from '../../../../shared/agent-command.js';

/** Shown read-only in every sandbox already (shell-sandbox.ts SYSTEM_DIRS): nothing to add for these. */
export const SYSTEM_ROOTS = [
  '/usr/',
  '/bin/',
  '/sbin/',
  '/lib/',
  '/lib32/',
  '/lib64/',
  '/libx32/',
  '/etc/',
  '/opt/',
  '/nix/store/',
];
export const isSystemPath = (p: string): boolean => SYSTEM_ROOTS.some((r) => p.startsWith(r) || p === r.slice(0, -1));

/** What marks a project's root folder. */
export const PROJECT_MARKERS = ['package.json', 'pyproject.toml', 'requirements.txt', '.venv', '.git'] as const;

/** Under the home folder: where keys, tokens and browser profiles live. Never shown, nor a folder holding one. */
const SECRET_HOME_PATHS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.password-store',
  '.netrc',
  '.pgpass',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/gcloud',
  '.config/gh',
  '.config/git/credentials',
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
];
/** Kernel and runtime interfaces: the sandbox has its own. */
const SYSTEM_INTERFACES = ['/proc', '/sys', '/dev', '/run'];

export interface PathRules {
  /** The user's home folder (the host's, not a worker's temporary HOME). */
  readonly home: string;
  /** The system's temp folder, where runs' workspace copies live. */
  readonly tmp: string;
  /** Parallax's data folder (stored keys and runs), when known. */
  readonly dataDir?: string | null;
}

export const isInside = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent === '/' ? '/' : `${parent}/`);

/** Why `p` (a real, absolute path) may not be shown to an agent; null when it may. */
export function refusal(p: string, rules: PathRules): string | null {
  if (p === path.parse(p).root) return 'it is the root of the file system';
  if (isInside(rules.home, p)) return p === rules.home ? 'it is your home folder' : 'it holds your home folder';
  if (isInside(rules.tmp, p))
    return p === rules.tmp ? "it is the temp folder, which holds other runs' workspaces" : 'it holds the temp folder';
  for (const dir of SYSTEM_INTERFACES) if (isInside(p, dir)) return `it is in ${dir}, which the sandbox makes its own`;
  for (const rel of SECRET_HOME_PATHS) {
    const secret = path.join(rules.home, rel);
    if (isInside(p, secret)) return `it is in ~/${rel}, where keys are kept`;
    if (isInside(secret, p)) return `it holds ~/${rel}, where keys are kept`;
  }
  if (rules.dataDir && (isInside(p, rules.dataDir) || isInside(rules.dataDir, p)))
    return "it holds Parallax's data (stored keys and runs)";
  return null;
}

const realOrNull = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

/** The nearest folder above `dir` (itself included) holding one of `markers`, stopping where nothing may be shown. */
export function nearestWith(
  dir: string,
  markers: readonly string[],
  rules: PathRules,
): { dir: string; marker: string } | null {
  for (let d = dir; !refusal(d, rules); d = path.dirname(d)) {
    const marker = markers.find((m) => existsSync(path.join(d, m)));
    if (marker) return { dir: d, marker };
    if (path.dirname(d) === d) break;
  }
  return null;
}

/**
 * What a script needs shown: its project root; else its own folder; else (that folder may not be shown) the
 * script alone. `word` is the script as the command names it, for the words of `why`.
 */
export function projectOf(script: string, rules: PathRules): AgentShownPath {
  const real = realOrNull(script) ?? script;
  const name = path.basename(script);
  const found = nearestWith(path.dirname(real), PROJECT_MARKERS, rules);
  if (found) return { path: found.dir, why: `the project root of ${name} (it holds ${found.marker})` };
  const own = path.dirname(real);
  const refused = refusal(own, rules);
  if (!refused) return { path: own, why: `the folder of ${name} (no ${PROJECT_MARKERS.join(', ')} above it)` };
  return { path: real, why: `${name} alone: its folder ${own} is not shown (${refused})` };
}

/** node_modules folders above a project root (a monorepo's hoisted packages), up to what may be shown. */
export function hoistedNodeModules(root: string, rules: PathRules): AgentShownPath[] {
  const out: AgentShownPath[] = [];
  for (let d = path.dirname(root); !refusal(d, rules) && path.dirname(d) !== d; d = path.dirname(d)) {
    const nm = path.join(d, 'node_modules');
    if (existsSync(nm)) out.push({ path: realOrNull(nm) ?? nm, why: `packages hoisted above the project (${nm})` });
  }
  return out;
}

/** Most links in a node_modules folder followed (a workspace's own packages, npm link). */
const MAX_LINKS = 64;

/** Packages a project's node_modules links to outside `shown` (workspace packages, npm link), each checked. */
export function linkedPackages(root: string, shown: readonly string[], rules: PathRules): AgentShownPath[] {
  const nm = path.join(root, 'node_modules');
  const out: AgentShownPath[] = [];
  const entries = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const names = entries(nm).flatMap((n) =>
    n.startsWith('@') ? entries(path.join(nm, n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n],
  );
  for (const name of names) {
    if (out.length >= MAX_LINKS) break;
    const link = path.join(nm, name);
    let isLink = false;
    try {
      isLink = lstatSync(link).isSymbolicLink();
    } catch {
      continue;
    }
    if (!isLink) continue;
    const target = realOrNull(link);
    if (
      !target ||
      isSystemPath(target) ||
      [...shown, ...out.map((o) => o.path)].some((s) => isInside(target, s)) ||
      refusal(target, rules)
    )
      continue;
    out.push({ path: target, why: `the package ${name}, linked from ${link}` });
  }
  return out;
}
