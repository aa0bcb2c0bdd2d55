/**
 * A reader of the Seatbelt profile language, enough for the profile seatbelt.ts writes: it parses the text (so
 * a broken profile fails here before a Mac refuses it) and answers "is this operation on this path allowed?"
 * the way sandbox-exec decides: the last matching rule wins; filters within one rule are alternatives.
 */
type Sexp = string | { str: string } | Sexp[];

function parse(text: string): Sexp[] {
  let i = 0;
  const next = (): Sexp => {
    while (/\s/.test(text[i])) i++;
    if (text[i] === ';') {
      while (text[i] !== '\n') i++;
      return next();
    }
    if (text[i] === '(') {
      i++;
      const list: Sexp[] = [];
      for (;;) {
        while (/\s/.test(text[i])) i++;
        if (text[i] === ')') {
          i++;
          return list;
        }
        if (i >= text.length) throw new Error('unbalanced parentheses');
        list.push(next());
      }
    }
    if (text[i] === '"') {
      let j = i + 1;
      let str = '';
      while (text[j] !== '"') {
        if (j >= text.length) throw new Error('unterminated string');
        str += text[j] === '\\' ? text[++j] : text[j];
        j++;
      }
      i = j + 1;
      return { str };
    }
    const m = /^[^\s()"]+/.exec(text.slice(i));
    if (!m) throw new Error(`unexpected ${text[i]} at ${i}`);
    i += m[0].length;
    return m[0];
  };
  const out: Sexp[] = [];
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) return out;
    out.push(next());
  }
}

export interface Query {
  /** e.g. file-read-data, file-read-metadata, file-write-create, network-outbound, process-exec, mach-lookup. */
  readonly op: string;
  readonly path?: string;
  readonly directory?: boolean;
  readonly name?: string;
}

interface Rule {
  readonly allow: boolean;
  readonly ops: string[];
  readonly filters: Sexp[][];
}

export class SeatbeltProfile {
  private readonly rules: Rule[] = [];
  readonly version: string;

  constructor(text: string) {
    const forms = parse(text);
    const version = forms.find((f) => Array.isArray(f) && f[0] === 'version') as Sexp[] | undefined;
    this.version = String(version?.[1] ?? '');
    for (const form of forms) {
      if (!Array.isArray(form) || (form[0] !== 'allow' && form[0] !== 'deny')) continue;
      const ops = form.slice(1).filter((x): x is string => typeof x === 'string');
      const filters = form.slice(1).filter((x): x is Sexp[] => Array.isArray(x));
      this.rules.push({ allow: form[0] === 'allow', ops, filters });
    }
  }

  allows(q: Query): boolean {
    let verdict: boolean | null = null;
    for (const rule of this.rules)
      if (
        rule.ops.some((op) => opMatches(op, q.op)) &&
        (rule.filters.length === 0 || rule.filters.some((f) => filterMatches(f, q)))
      )
        verdict = rule.allow;
    if (verdict === null) throw new Error('no rule matched, not even a default');
    return verdict;
  }
}

function opMatches(ruleOp: string, op: string): boolean {
  if (ruleOp === 'default') return true;
  return ruleOp.endsWith('*') ? op.startsWith(ruleOp.slice(0, -1)) : ruleOp === op;
}

function filterMatches(filter: Sexp[], q: Query): boolean {
  const [kind, ...args] = filter;
  const arg = (n: number) =>
    typeof args[n] === 'object' && !Array.isArray(args[n]) ? (args[n] as { str: string }).str : String(args[n]);
  switch (kind) {
    case 'subpath':
      return (
        q.path !== undefined && (q.path === arg(0) || q.path.startsWith(arg(0).endsWith('/') ? arg(0) : `${arg(0)}/`))
      );
    case 'literal':
      return q.path === arg(0);
    case 'vnode-type':
      return arg(0) === 'DIRECTORY' && q.directory === true;
    case 'global-name':
      return q.name === arg(0);
    case 'target':
      return true;
    default:
      throw new Error(`filter ${String(kind)} is not understood by this reader`);
  }
}
