/**
 * MCP elicitation (elicitation/create, form mode): a server asks the person for a few values while one of its
 * tools runs. The requested schema is the server's, so it is read into a small, bounded list of fields here
 * (the terminal prompt and the app read the same list), and every answer is checked against it before it is
 * sent back. Only flat primitive fields exist in MCP's form mode: text, number, integer, yes/no, one or many
 * of a list.
 */

export type ElicitAction = 'accept' | 'decline' | 'cancel';
export type ElicitValue = string | number | boolean | readonly string[];

export interface ElicitField {
  readonly key: string;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
  /** For choice / choices: the values, and the label shown for each. */
  readonly options?: readonly { readonly value: string; readonly label: string }[];
  readonly min?: number;
  readonly max?: number;
  readonly format?: string;
  readonly default?: ElicitValue;
}

/** Bounds on what a server may ask (a hostile one could send a form of any size). */
export const ELICIT_LIMITS = {
  schemaChars: 20_000,
  fields: 20,
  options: 100,
  textChars: 500,
  answerChars: 2000,
  messageChars: 2000,
} as const;

// eslint-disable-next-line no-control-regex -- control characters would move a terminal's cursor
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const text = (v: unknown, max: number = ELICIT_LIMITS.textChars): string | undefined =>
  typeof v === 'string' ? v.replace(UNSAFE, '').slice(0, max) : undefined;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The server's message, cleaned and cut. */
export function elicitMessage(raw: unknown): string {
  return text(raw, ELICIT_LIMITS.messageChars) ?? '';
}

/** The fields of a requested schema, or why it is refused (too big, or not MCP's flat form). */
export function elicitFields(schema: unknown): { ok: true; fields: ElicitField[] } | { ok: false; error: string } {
  const size = JSON.stringify(schema ?? null)?.length ?? 0;
  if (size > ELICIT_LIMITS.schemaChars)
    return {
      ok: false,
      error: `the requested schema has ${size} characters; Parallax shows at most ${ELICIT_LIMITS.schemaChars}`,
    };
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  const props = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    unknown
  >;
  const keys = Object.keys(props);
  if (keys.length > ELICIT_LIMITS.fields)
    return {
      ok: false,
      error: `the requested schema has ${keys.length} fields; Parallax shows at most ${ELICIT_LIMITS.fields}`,
    };
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : [],
  );
  const fields: ElicitField[] = [];
  for (const key of keys) {
    const p = (typeof props[key] === 'object' && props[key] !== null ? props[key] : {}) as Record<string, unknown>;
    const base = {
      key: text(key, 100) ?? key,
      title: text(p.title, 200) || key,
      ...(text(p.description) ? { description: text(p.description)! } : {}),
      required: required.has(key),
    };
    const items = (typeof p.items === 'object' && p.items !== null ? p.items : {}) as Record<string, unknown>;
    const list = (values: unknown, labels?: unknown): { value: string; label: string }[] | null => {
      if (!Array.isArray(values)) return null;
      return values.slice(0, ELICIT_LIMITS.options).map((v, i) => {
        const o = (typeof v === 'object' && v !== null ? v : null) as Record<string, unknown> | null;
        const value = text(o ? o.const : v) ?? String(v);
        const label = text(o ? o.title : Array.isArray(labels) ? labels[i] : undefined) || value;
        return { value, label };
      });
    };
    const options = p.type === 'array' ? list(items.enum ?? items.anyOf) : list(p.enum ?? p.oneOf, p.enumNames);
    const min = num(p.minimum) ?? num(p.minLength) ?? num(p.minItems);
    const max = num(p.maximum) ?? num(p.maxLength) ?? num(p.maxItems);
    const bounds = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
    const kind: ElicitField['kind'] | null =
      p.type === 'array'
        ? options
          ? 'choices'
          : null
        : options
          ? 'choice'
          : p.type === 'string'
            ? 'string'
            : p.type === 'number'
              ? 'number'
              : p.type === 'integer'
                ? 'integer'
                : p.type === 'boolean'
                  ? 'boolean'
                  : null;
    if (!kind)
      return {
        ok: false,
        error: `field "${base.key}" is not one of MCP's form types (string, number, integer, boolean, a list of strings)`,
      };
    const def = p.default;
    const defaultValue =
      typeof def === 'string' || typeof def === 'number' || typeof def === 'boolean'
        ? typeof def === 'string'
          ? text(def)!
          : def
        : Array.isArray(def) && def.every((d) => typeof d === 'string')
          ? def.slice(0, ELICIT_LIMITS.options).map((d) => text(d)!)
          : undefined;
    fields.push({
      ...base,
      kind,
      ...(options ? { options } : {}),
      ...bounds,
      ...(text(p.format, 40) ? { format: text(p.format, 40)! } : {}),
      ...(defaultValue !== undefined ? { default: defaultValue } : {}),
    });
  }
  return { ok: true, fields };
}

/**
 * One field's answer as typed (text from a terminal or a form), checked and converted; `''` is no answer.
 * Returns the value, undefined for an empty optional field, or an error sentence.
 */
export function readElicitValue(
  field: ElicitField,
  typed: string | boolean | readonly string[],
): { value?: ElicitValue; error?: string } {
  if (typeof typed === 'boolean')
    return field.kind === 'boolean' ? { value: typed } : { error: `${field.title}: expected ${field.kind}` };
  if (Array.isArray(typed) || field.kind === 'choices') {
    const chosen = (Array.isArray(typed) ? typed : String(typed).split(',')).map((v) => v.trim()).filter(Boolean);
    const allowed = new Set(field.options?.map((o) => o.value));
    const bad = chosen.find((v) => !allowed.has(v));
    if (bad !== undefined) return { error: `${field.title}: "${bad}" is not one of ${[...allowed].join(', ')}` };
    if (chosen.length === 0) return field.required ? { error: `${field.title} is required` } : {};
    if (field.min !== undefined && chosen.length < field.min)
      return { error: `${field.title}: choose at least ${field.min}` };
    if (field.max !== undefined && chosen.length > field.max)
      return { error: `${field.title}: choose at most ${field.max}` };
    return { value: chosen };
  }
  const raw = String(typed).trim();
  if (raw === '') return field.required ? { error: `${field.title} is required` } : {};
  if (raw.length > ELICIT_LIMITS.answerChars)
    return { error: `${field.title}: at most ${ELICIT_LIMITS.answerChars} characters` };
  switch (field.kind) {
    case 'boolean': {
      const yes = /^(y|yes|true)$/i.test(raw);
      return yes || /^(n|no|false)$/i.test(raw) ? { value: yes } : { error: `${field.title}: answer yes or no` };
    }
    case 'number':
    case 'integer': {
      const n = Number(raw);
      if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n)))
        return { error: `${field.title}: expected ${field.kind === 'integer' ? 'a whole number' : 'a number'}` };
      if (field.min !== undefined && n < field.min) return { error: `${field.title}: at least ${field.min}` };
      if (field.max !== undefined && n > field.max) return { error: `${field.title}: at most ${field.max}` };
      return { value: n };
    }
    case 'choice': {
      const match = field.options?.find((o) => o.value === raw || o.label === raw);
      return match
        ? { value: match.value }
        : { error: `${field.title}: choose one of ${field.options?.map((o) => o.value).join(', ')}` };
    }
    case 'string':
    default: {
      if (field.min !== undefined && raw.length < field.min)
        return { error: `${field.title}: at least ${field.min} characters` };
      if (field.max !== undefined && raw.length > field.max)
        return { error: `${field.title}: at most ${field.max} characters` };
      if (field.format === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(raw))
        return { error: `${field.title}: expected an email address` };
      if (field.format === 'uri' && !/^[a-z][a-z0-9+.-]*:[^\s]+$/i.test(raw))
        return { error: `${field.title}: expected a URL` };
      return { value: raw };
    }
  }
}

/** A whole answer checked against the fields (the engine checks again what any surface sends). */
export function checkElicitContent(
  fields: readonly ElicitField[],
  content: Readonly<Record<string, unknown>>,
): { ok: true; content: Record<string, ElicitValue> } | { ok: false; errors: string[] } {
  const out: Record<string, ElicitValue> = {};
  const errors: string[] = [];
  for (const f of fields) {
    const v = content[f.key];
    const typed =
      v === undefined || v === null
        ? ''
        : typeof v === 'boolean' || Array.isArray(v)
          ? (v as boolean | string[])
          : String(v);
    const r = readElicitValue(f, typed as string | boolean | readonly string[]);
    if (r.error) errors.push(r.error);
    else if (r.value !== undefined) out[f.key] = r.value;
  }
  return errors.length ? { ok: false, errors } : { ok: true, content: out };
}
