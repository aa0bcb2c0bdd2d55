/**
 * Turns what the sandbox thread reported into the CodeError the model reads: the line and column in the
 * MODEL's code (the wrapper line subtracted), the error itself, and a hint when the usual next step is known.
 */
import type { CodeError, LimitHit } from '../../../shared/step-event.js';
import type { SandboxOutcome } from './sandbox.js';
import { PROGRAM_FILE, WRAPPER_LINES, type RawError } from './protocol.js';
import type { SandboxLimits } from './limits.js';

const FRAME = new RegExp(`${PROGRAM_FILE.replace('.', '\\.')}:(\\d+)(?::(\\d+))?`);
/** The Python sandbox names the model's lines `program.py:N` (no wrapper: its line numbers are the model's). */
const PY_FRAME = /program\.py:(\d+)/;

interface Place {
  readonly line: number | null;
  readonly column: number | null;
}

/** The first frame in the model's code; prelude frames (a tool wrapper) are skipped. */
export function placeOf(error: RawError | null, code: string): Place {
  const py = error?.stack ? PY_FRAME.exec(error.stack) : null;
  if (py) return { line: Math.max(1, Math.min(Number(py[1]), code.split('\n').length)), column: null };
  const m = error?.stack ? FRAME.exec(error.stack) : null;
  if (!m) return { line: null, column: null };
  const lines = code.split('\n').length;
  const line = Number(m[1]) - WRAPPER_LINES;
  // Past the model's last line: the parser reached the wrapper's closing line (an unclosed bracket).
  if (line > lines) return { line: lines, column: null };
  // quickjs-ng reports syntax errors at column 1 of the line, which would mislead.
  const column = m[2] !== undefined && error?.name !== 'SyntaxError' ? Number(m[2]) : null;
  return { line: Math.max(1, line), column };
}

const NODE_NAMES = new Set([
  'require',
  'process',
  'module',
  'exports',
  '__dirname',
  '__filename',
  'Buffer',
  'fs',
  'path',
]);
const NETWORK_NAMES = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'axios']);
const TIMER_NAMES = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);

function pythonHint(error: RawError, hiddenTools: readonly string[]): string {
  const undefinedName =
    error.name === 'NameError' ? /^name '([^']+)' is not defined/.exec(error.message)?.[1] : undefined;
  if (undefinedName && hiddenTools.includes(undefinedName)) {
    return ` — ${undefinedName} is not a global function: get it with ${undefinedName} = search_tools('${undefinedName}')[0]`;
  }
  if (error.name === 'RecursionError')
    return ' — recursion went deeper than the sandbox allows; use a loop or an explicit stack';
  return '';
}

function hint(error: RawError, hiddenTools: readonly string[], sourceLine: string): string {
  if (error.stack && PY_FRAME.test(error.stack)) return pythonHint(error, hiddenTools);
  const undefinedName =
    error.name === 'ReferenceError' ? /^'([^']+)' is not defined/.exec(error.message)?.[1] : undefined;
  if (undefinedName) {
    if (hiddenTools.includes(undefinedName)) {
      return ` — ${undefinedName} is not a global function: get it with const ${undefinedName} = search_tools('${undefinedName}')[0]`;
    }
    if (NODE_NAMES.has(undefinedName))
      return ' — there are no Node.js modules here; call the tool functions (list_dir, read_file, …) instead';
    if (NETWORK_NAMES.has(undefinedName))
      return ` — there is no network API here; find a tool with search_tools('download web page')`;
    if (TIMER_NAMES.has(undefinedName)) return ' — there are no timers here; tools return their results directly';
  }
  if (error.name === 'SyntaxError' && /^\s*(import|export)\b/.test(sourceLine)) {
    return ' — programs cannot import modules; the tools are already global functions';
  }
  if (error.name === 'InternalError' && error.message === 'stack overflow') {
    return ' — recursion went deeper than the sandbox allows; use a loop or an explicit stack';
  }
  return '';
}

function atLine(place: Place): string {
  return place.line === null ? '' : ` (it was running near line ${place.line})`;
}

export function limitHitOf(outcome: SandboxOutcome): LimitHit {
  if (outcome.stop === 'time' || outcome.stop === 'memory' || outcome.stop === 'tool-calls') return outcome.stop;
  return outcome.truncated ? 'output' : null;
}

/** The program's error, or null when it ended normally. */
export function codeErrorOf(
  outcome: SandboxOutcome,
  code: string,
  limits: Required<SandboxLimits>,
  hiddenTools: readonly string[],
): CodeError | null {
  const place = placeOf(outcome.error, code);
  const stopped = (message: string): CodeError => ({ line: null, column: null, message });
  switch (outcome.stop) {
    case 'time':
      return stopped(
        `time limit of ${limits.timeoutMs} ms exceeded — the program was stopped${atLine(place)}. ` +
          'Avoid endless loops; do less work per program, or print partial results as you go.',
      );
    case 'memory':
      return stopped(
        `memory limit of ${limits.memoryMb} MiB exceeded — the program was stopped${atLine(place)}. ` +
          'Keep less in memory: handle one file at a time and keep only counts or summaries.',
      );
    case 'tool-calls':
      return stopped(
        `tool-call limit of ${limits.maxToolCalls} calls per program reached (search_tools counts too) — the program was stopped${atLine(place)}. ` +
          'Make fewer calls, or split the work over several programs.',
      );
    case 'cancel':
      return stopped('the run was cancelled — the program was stopped.');
    case null:
    default:
      break;
  }
  if (outcome.fatal) {
    return stopped(
      `the program broke the sandbox's engine (${outcome.fatal}) and was stopped. ` +
        'This usually means nesting that is far too deep (recursion, or deeply nested data or code); flatten it.',
    );
  }
  if (outcome.error) {
    const e = outcome.error;
    const text = e.isError ? `${e.name}: ${e.message}` : `Uncaught ${e.message} (throw an Error to get a line number)`;
    const sourceLine = place.line === null ? '' : (code.split('\n')[place.line - 1] ?? '');
    return { line: place.line, column: place.column, message: text + hint(e, hiddenTools, sourceLine) };
  }
  if (outcome.unsettled) {
    return stopped(
      'the program ended while still awaiting a promise that never settles (there are no timers or events here). ' +
        'Tool functions return their results directly: call them without await, or await only settled promises.',
    );
  }
  return null;
}

/** `Error at line 3, column 12: TypeError: …`, or `Error: …` when the place is unknown. */
export function formatCodeError(error: CodeError): string {
  if (error.line === null) return `Error: ${error.message}`;
  return `Error at line ${error.line}${error.column === null ? '' : `, column ${error.column}`}: ${error.message}`;
}
