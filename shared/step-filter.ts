/**
 * Filters over a comparison's steps, from the recorded events alone (the app's Timeline uses it on live and
 * stored runs alike). A step is one (column, step number) cell of the aligned timeline.
 *
 * - errorsOnly: the step recorded a failure — a tool call that returned an error or was cancelled, a program
 *   that threw or hit a limit, a call inside a program that failed, a model attempt that failed and was retried
 *   (model-retry), a reply that could not be read (parsed.parseError), a model refusal, an approval denied; and
 *   on a run's last step, a run that ended in error/crash or failed validation.
 * - tool: the step called this tool, directly or from inside a program.
 * - text: case-insensitive substring of the step's arguments (as JSON), tool results, program code and output,
 *   inner calls' arguments, and the model's text (its answers).
 * - differOnly: keep only rows where the columns differ. A row differs when some column lacks the step number
 *   while another has it, or when the columns' step signatures are not all equal. A step's signature is its list
 *   of calls, each as tool name + arguments (canonical JSON) + outcome (ok/error); a run_code call counts as the
 *   calls inside its program plus its own outcome (so a program and direct calls doing the same thing compare
 *   equal); a step with no call is "answer". Model wording is not compared.
 * A row is shown when at least one of its steps matches every other filter (and, with differOnly, the row differs).
 */
import { canonicalJson } from './canonical-json.js';
import type { StepEvent } from './step-event.js';

export interface StepFilter {
  readonly errorsOnly: boolean;
  readonly tool: string | null;
  readonly text: string;
  readonly differOnly: boolean;
}

export const NO_FILTER: StepFilter = { errorsOnly: false, tool: null, text: '', differOnly: false };

export function filterActive(f: StepFilter): boolean {
  return f.errorsOnly || f.tool !== null || f.text.trim() !== '' || f.differOnly;
}

/** What the filters need of one step. */
export interface StepFacts {
  readonly step: number;
  /** Why this step counts as an error, one phrase per failure (empty: none). */
  readonly errors: readonly string[];
  /** Tools it called, inner calls included, once each. */
  readonly tools: readonly string[];
  /** Everything text search looks through, lower-cased. */
  readonly haystack: string;
  readonly signature: string;
}

interface Acc {
  step: number;
  errors: string[];
  tools: Set<string>;
  text: string[];
  calls: Map<string, { name: string; args: string; error: boolean; inner: string[] | null }>;
  order: string[];
}

const text = (v: unknown) => (typeof v === 'string' ? v : canonicalJson(v));

/** One record per step number of one run, in step order. */
export function stepFacts(events: readonly StepEvent[]): StepFacts[] {
  const byStep = new Map<number, Acc>();
  const at = (step: number): Acc => {
    let a = byStep.get(step);
    if (!a) byStep.set(step, (a = { step, errors: [], tools: new Set(), text: [], calls: new Map(), order: [] }));
    return a;
  };
  const call = (a: Acc, id: string, name: string) => {
    let c = a.calls.get(id);
    if (!c) {
      a.calls.set(id, (c = { name, args: 'null', error: false, inner: null }));
      a.order.push(id);
    }
    c.name = name;
    return c;
  };
  let lastStep = 0;
  for (const e of events) {
    if ('step' in e && typeof e.step === 'number') lastStep = Math.max(lastStep, e.step);
    switch (e.type) {
      case 'model-request':
        at(e.step);
        break;
      case 'model-retry':
        at(e.step).errors.push(`model error (attempt ${e.attempt}): ${e.message}`);
        break;
      case 'model-response': {
        const a = at(e.step);
        a.text.push(e.text);
        if (e.parsed?.finalAnswer) a.text.push(e.parsed.finalAnswer);
        if (e.parsed?.parseError) a.errors.push(`malformed reply: ${e.parsed.parseError}`);
        if (e.refusal) a.errors.push(`model refused: ${e.refusal}`);
        for (const t of e.toolCalls) {
          a.tools.add(t.name);
          const c = call(a, t.id, t.name);
          c.args = typeof t.arguments === 'string' ? t.arguments : text(t.arguments);
          a.text.push(c.args);
        }
        break;
      }
      case 'tool-started': {
        const a = at(e.step);
        a.tools.add(e.name);
        const c = call(a, e.callId, e.name);
        c.args = text(e.args);
        a.text.push(c.args);
        break;
      }
      case 'tool-finished': {
        const a = at(e.step);
        a.tools.add(e.name);
        const c = call(a, e.callId, e.name);
        a.text.push(e.output);
        if (e.error !== null) {
          c.error = true;
          a.errors.push(`${e.name} failed: ${e.error}`);
        } else if (e.cancelled) {
          c.error = true;
          a.errors.push(`${e.name} was cancelled`);
        }
        break;
      }
      case 'code-run': {
        const a = at(e.step);
        const c = call(a, e.callId, 'run_code');
        a.tools.add('run_code');
        a.text.push(e.code, e.output);
        c.inner = e.toolCalls.map((t) => `${t.name}(${canonicalJson(t.args)})=${t.error === null ? 'ok' : 'error'}`);
        for (const t of e.toolCalls) {
          a.tools.add(t.name);
          a.text.push(text(t.args));
          if (t.error !== null) a.errors.push(`${t.name} failed inside the program: ${t.error}`);
        }
        if (e.error) {
          c.error = true;
          a.errors.push(`program error: ${e.error.message}`);
        }
        if (e.limitHit) {
          c.error = true;
          a.errors.push(`program hit its ${e.limitHit} limit`);
        }
        break;
      }
      case 'approval-resolved':
        if (e.decision === 'deny') at(e.step).errors.push(`${e.tool} call refused at approval`);
        break;
      case 'run-finished': {
        if (lastStep === 0) break;
        const a = at(lastStep);
        if (e.answer) a.text.push(e.answer);
        if (e.status === 'error' || e.status === 'crashed')
          a.errors.push(`run ${e.status}${e.error ? `: ${e.error}` : ''}`);
        if (e.validation && !e.validation.ok) a.errors.push(`failed validation: ${e.validation.detail}`);
        break;
      }
      case 'approval-requested':
      case 'elicitation-requested':
      case 'elicitation':
      case 'history-summary':
      case 'run-started':
      case 'run-warning':
      case 'sampling':
      case 'tool-progress':
      case 'tool-search':
      default:
        break;
    }
  }
  return [...byStep.values()]
    .sort((x, y) => x.step - y.step)
    .map((a) => {
      const parts = a.order.map((id) => {
        const c = a.calls.get(id)!;
        const outcome = c.error ? 'error' : 'ok';
        return c.inner
          ? `run_code[${c.inner.join(';')}]=${outcome}`
          : `${c.name}(${canonicalJson(parseMaybe(c.args))})=${outcome}`;
      });
      return {
        step: a.step,
        errors: a.errors,
        tools: [...a.tools],
        haystack: a.text.join('\n').toLowerCase(),
        signature: parts.length ? parts.join(' | ') : 'answer',
      };
    });
}

function parseMaybe(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

export function stepMatches(f: StepFacts, filter: StepFilter): boolean {
  if (filter.errorsOnly && f.errors.length === 0) return false;
  if (filter.tool !== null && !f.tools.includes(filter.tool)) return false;
  const q = filter.text.trim().toLowerCase();
  if (q && !f.haystack.includes(q)) return false;
  return true;
}

export interface FilterResult {
  /** Step numbers of the rows to show, ascending. */
  readonly rows: readonly number[];
  /** Per column, the step numbers that match (within shown rows). */
  readonly matches: readonly ReadonlySet<number>[];
  readonly matched: number;
  readonly total: number;
}

/** Whether row `step` differs across the columns (see the module comment). */
export function rowDiffers(columns: readonly (readonly StepFacts[])[], step: number): boolean {
  const sigs = columns.map((c) => c.find((f) => f.step === step)?.signature ?? null);
  return new Set(sigs).size > 1;
}

export function filterSteps(columns: readonly (readonly StepFacts[])[], filter: StepFilter): FilterResult {
  const steps = [...new Set(columns.flatMap((c) => c.map((f) => f.step)))].sort((a, b) => a - b);
  const index = columns.map((c) => new Map(c.map((f) => [f.step, f])));
  const matches = columns.map(() => new Set<number>());
  const rows: number[] = [];
  let matched = 0;
  for (const step of steps) {
    if (filter.differOnly && !rowDiffers(columns, step)) continue;
    let any = false;
    index.forEach((m, i) => {
      const f = m.get(step);
      if (f && stepMatches(f, filter)) {
        matches[i]!.add(step);
        matched++;
        any = true;
      }
    });
    if (any) rows.push(step);
  }
  const total = columns.reduce((n, c) => n + c.length, 0);
  return { rows, matches, matched, total };
}

/** The tools called anywhere in the comparison (inner calls included), sorted. */
export function toolsUsed(columns: readonly (readonly StepFacts[])[]): string[] {
  return [...new Set(columns.flatMap((c) => c.flatMap((f) => f.tools)))].sort();
}
