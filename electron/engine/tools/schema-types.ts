/**
 * A JSON schema as a type in each Code Mode language's own syntax, for signatures: TypeScript
 * (`{name: string, tags?: string[]}[]`, `"a" | "b"`, `integer`) and Python (`list[TypedDict[{"name": str,
 * "tags": NotRequired[list[str]]}]]`, `Literal["a", "b"]`, `int`, `Optional[str]`). Objects nest at most
 * SCHEMA_OBJECT_DEPTH deep and hold at most SCHEMA_MAX_KEYS keys written out; past that an object is named (its
 * schema's title, or its key's name, e.g. `Entity` for the items of `entities`) and `describe()` shows the rest.
 */

/** Object levels written out in a signature (the top-level arguments are not a level). */
export const SCHEMA_OBJECT_DEPTH = 3;
/** An object with more keys than this is named rather than written out. */
export const SCHEMA_MAX_KEYS = 12;
const MAX_ENUM = 8;

export type TypeSyntax = 'typescript' | 'python';

interface Schema {
  readonly type?: unknown;
  readonly enum?: unknown;
  readonly const?: unknown;
  readonly items?: unknown;
  readonly properties?: unknown;
  readonly required?: unknown;
  readonly additionalProperties?: unknown;
  readonly anyOf?: unknown;
  readonly oneOf?: unknown;
  readonly allOf?: unknown;
  readonly title?: unknown;
  readonly $ref?: unknown;
}

/** `entities` → `Entity`, `file_info` → `FileInfo`: a readable name for an object too deep to write out. */
export function typeNameOf(key: string, item = false): string {
  let base = key.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''));
  if (item) base = base.replace(/ies$/, 'y').replace(/([^s])s$/, '$1');
  return base ? base[0].toUpperCase() + base.slice(1) : 'Object';
}

function literal(value: unknown, syntax: TypeSyntax): string {
  if (syntax === 'python') return pythonLiteral(value);
  return JSON.stringify(value);
}

/** A JSON value as Python writes it: None, True, False, lists and dicts with Python's literals. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function union(parts: readonly string[], syntax: TypeSyntax): string {
  const unique = [...new Set(parts)];
  if (syntax === 'python') {
    const literals = unique.filter((p) => p.startsWith('Literal['));
    const rest = unique.filter((p) => !p.startsWith('Literal['));
    const merged =
      literals.length > 1 ? [`Literal[${literals.map((l) => l.slice(8, -1)).join(', ')}]`, ...rest] : unique;
    const nullable = merged.includes('None');
    const others = merged.filter((p) => p !== 'None');
    if (nullable && others.length === 1) return `Optional[${others[0]}]`;
    return merged.join(' | ');
  }
  return unique.join(' | ');
}

const PRIMITIVES: Readonly<Record<TypeSyntax, Readonly<Record<string, string>>>> = {
  typescript: { string: 'string', number: 'number', integer: 'integer', boolean: 'boolean', null: 'null' },
  python: { string: 'str', number: 'float', integer: 'int', boolean: 'bool', null: 'None' },
};

/**
 * `key` is the property (or argument) the schema belongs to, for naming; `item` says the schema is the items
 * of that key's array; `depth` counts the object levels already written around it.
 */
export function typeOf(schema: unknown, syntax: TypeSyntax, key = '', depth = 0, item = false): string {
  const any = syntax === 'python' ? 'Any' : 'any';
  if (schema === true) return any;
  if (typeof schema !== 'object' || schema === null) return any;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() || any;
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.length <= MAX_ENUM) {
    return syntax === 'python'
      ? `Literal[${s.enum.map((v) => literal(v, syntax)).join(', ')}]`
      : s.enum.map((v) => literal(v, syntax)).join(' | ');
  }
  if (s.const !== undefined)
    return syntax === 'python' ? `Literal[${literal(s.const, syntax)}]` : literal(s.const, syntax);
  const options = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (options)
    return union(
      options.map((o) => typeOf(o, syntax, key, depth, item)),
      syntax,
    );
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return typeOf(s.allOf[0], syntax, key, depth, item);
  if (Array.isArray(s.type))
    return union(
      s.type.map((t) => typeOf({ ...s, type: t }, syntax, key, depth, item)),
      syntax,
    );
  const type = typeof s.type === 'string' ? s.type : s.properties ? 'object' : s.items ? 'array' : undefined;
  if (type && PRIMITIVES[syntax][type]) return PRIMITIVES[syntax][type];
  if (type === 'array') {
    const inner = typeOf(s.items, syntax, key, depth, true);
    if (syntax === 'python') return `list[${inner}]`;
    return inner.includes(' | ') ? `(${inner})[]` : `${inner}[]`;
  }
  if (type === 'object') return objectType(s, syntax, key, depth, item);
  return any;
}

function objectType(s: Schema, syntax: TypeSyntax, key: string, depth: number, item: boolean): string {
  const props = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    unknown
  >;
  const keys = Object.keys(props);
  if (keys.length === 0) {
    const values =
      typeof s.additionalProperties === 'object' && s.additionalProperties !== null
        ? typeOf(s.additionalProperties, syntax, key, depth + 1)
        : null;
    if (syntax === 'python') return `dict[str, ${values ?? 'Any'}]`;
    return values ? `Record<string, ${values}>` : 'object';
  }
  if (depth >= SCHEMA_OBJECT_DEPTH || keys.length > SCHEMA_MAX_KEYS) {
    return typeof s.title === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.title)
      ? s.title
      : key
        ? typeNameOf(key, item)
        : syntax === 'python'
          ? 'dict'
          : 'object';
  }
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  if (syntax === 'python') {
    const fields = keys.map((k) => {
      const t = typeOf(props[k], syntax, k, depth + 1);
      return `${JSON.stringify(k)}: ${required.has(k) ? t : `NotRequired[${t}]`}`;
    });
    return `TypedDict[{${fields.join(', ')}}]`;
  }
  const name = (k: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));
  return `{${keys.map((k) => `${name(k)}${required.has(k) ? '' : '?'}: ${typeOf(props[k], syntax, k, depth + 1)}`).join(', ')}}`;
}
