/**
 * Text from a model, a tool, a file or a stored record made safe to show: control characters cannot drive the
 * terminal (OSC 52 clipboard writes, title changes, cursor moves, C1 CSI) and bidirectional controls cannot
 * reorder what the reader sees. Newline and tab stay; every other C0/C1 character and DEL is shown escaped
 * (`\x1b`, `\x9b`, `\r`), each bidi control as a visible `<U+202E>`. Used by every CLI printer (through
 * electron/cli/terminal.ts) and by the approval card, which also shows long arguments with their tail.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

function shown(ch: string): string {
  const code = ch.charCodeAt(0);
  if (NAMED[ch]) return NAMED[ch];
  if (code <= 0x9f) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The text with its control and bidi characters shown, not obeyed. */
export function inert(text: string): string {
  return text.replace(UNSAFE, shown);
}

/** Whether `inert` would change the text. */
export function hasUnsafeCharacters(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/**
 * JSON text that means the same value but carries no raw C1 or bidi character (JSON.stringify escapes C0
 * itself; the others are legal raw in JSON and would reach the terminal as they are).
 */
export function inertJson(json: string): string {
  return json.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A long text kept to about `max` characters without hiding its end: the start, the number of characters
 * left out, and the end (where a dangerous tail such as `; rm -rf ~` would be). Short texts come back whole.
 */
export function startAndEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(2, max);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)} … [${omitted} characters] … ${text.slice(text.length - tail)}`;
}

/** Runs of blank characters at least this long are shown as a count: they can push a command's tail out of view. */
const BLANK_RUN = /[ \t\n\r\f\v\u00a0\u2000-\u200b\u3000]{12,}/g;

/**
 * What an approval prompt shows of a tool call's arguments (terminal and the app's card alike): run_shell's
 * command as it is, other arguments as JSON; long blank runs counted (`[420 blank characters]`), control and
 * bidi characters shown (`inert`), and past `max` characters the start and the end with the count between —
 * never a start alone.
 */
export function approvalArgsText(tool: string, args: unknown, max: number): string {
  const command =
    tool === 'run_shell' && args && typeof args === 'object' ? (args as { command?: unknown }).command : undefined;
  let text: string;
  if (typeof command === 'string' && Object.keys(args as object).length === 1) text = command;
  else if (typeof args === 'string') text = args;
  else {
    try {
      text = JSON.stringify(args, null, 2) ?? String(args);
    } catch {
      text = String(args);
    }
  }
  const counted = text.replace(BLANK_RUN, (run) => ` [${run.length} blank characters] `);
  return startAndEnd(inert(counted), max);
}
