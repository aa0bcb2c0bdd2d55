/**
 * codeState (shared/run-knobs.ts) as the model meets it: one sentence in run_code's description, the same for
 * JavaScript and Python, and after each program with 'persist' a line saying what is stored and what the
 * sandbox holds in memory, or that a limit took the stored variables away.
 */
import type { CodeStateSetting } from '../../../../shared/run-knobs.js';
import type { CodeState } from '../../../../shared/step-event.js';
import { formatBytes } from '../../tools/limits.js';

/** How run_code's description says whether variables carry over. */
export const CODE_STATE_NOTE: Record<CodeStateSetting, string> = {
  fresh: 'Each call starts fresh: nothing carries over.',
  persist:
    'Top-level variables and functions stay for your next run_code call in this run (reuse them instead of ' +
    'fetching again); each result lists what is stored. A program stopped by a limit loses them all.',
};

/** The fresh-state sentences the profiles' descriptions use (Parallax's, the tutorial's). */
const FRESH = /Each call starts (?:fresh: nothing carries over|with\s+a fresh namespace)\./;

/** A run_code description with the setting's sentence in place of the fresh-state one (appended when it has none). */
export function withCodeState(description: string, setting: CodeStateSetting): string {
  if (setting === 'fresh') return description;
  return FRESH.test(description)
    ? description.replace(FRESH, CODE_STATE_NOTE.persist)
    : `${description}\n${CODE_STATE_NOTE.persist}`;
}

const MAX_LISTED = 12;

function variableText(v: CodeState['variables'][number]): string {
  return v.bytes === null ? `${v.name} (${v.type})` : `${v.name} (${v.type}, ${formatBytes(v.bytes)})`;
}

/**
 * Why a persisting JavaScript program failed to compile, when persistence is the reason: a name declared again
 * (it is stored), or a top-level await (programs that keep their variables run as scripts). Null otherwise.
 */
export function persistErrorNote(error: { readonly message: string } | null, code: string): string | null {
  const redeclared = /redeclaration of '([^']+)'/.exec(error?.message ?? '')?.[1];
  if (redeclared)
    return `${redeclared} is already stored by an earlier program: assign it without const/let/class, or use another name`;
  if (/SyntaxError/.test(error?.message ?? '') && /\bawait\b/.test(code)) {
    return 'programs that keep their variables run as scripts, so top-level await is not available; tools need no await';
  }
  return null;
}

/**
 * The line after a persisting program's output. `before`: the names stored before it, for the loss message.
 * `note`: why the program failed when persistence is the reason (persistErrorNote).
 */
export function codeStateText(state: CodeState, before: readonly string[], note: string | null): string {
  if (state.lost) {
    const gone =
      before.length > 0 ? ` (${before.slice(0, MAX_LISTED).join(', ')}${before.length > MAX_LISTED ? ', …' : ''})` : '';
    return `[stored variables lost: a limit stopped this program and the sandbox dropped what earlier programs stored${gone}; define them again]`;
  }
  const memory = state.memoryBytes === null ? '' : ` · sandbox memory ${formatBytes(state.memoryBytes)}`;
  const why = note ? `[${note}]\n` : '';
  if (state.variables.length === 0) return `${why}[nothing stored for your next program${memory}]`;
  const listed = state.variables.slice(0, MAX_LISTED).map(variableText).join(', ');
  const more = state.variables.length > MAX_LISTED ? `, and ${state.variables.length - MAX_LISTED} more` : '';
  return `${why}[stored for your next program: ${listed}${more}${memory}]`;
}
