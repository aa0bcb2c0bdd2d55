/**
 * Tool signatures as Python reads them: `def read_file(path: str) -> str`. The return types are the tools'
 * own (written TypeScript-style in each definition), translated word for word, so one description per tool
 * serves both languages.
 */
import { parameterNames, parametersOf, type ToolDefinition } from '../../tools/tool.js';
import { pythonLiteral, typeOf } from '../../tools/schema-types.js';

const SCHEMA_TYPES: Readonly<Record<string, string>> = {
  string: 'str',
  number: 'float',
  integer: 'int',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
  null: 'None',
};

/** `{status: number, title: string}` → `{status: float, title: str}`; `string[]` → `list[str]`. */
export function pythonType(ts: string): string {
  return ts.replace(/\b(string|number|boolean|null|true|false)\b(\[\])?/g, (_m, word: string, list?: string) => {
    const py =
      { string: 'str', number: 'float', boolean: 'bool', null: 'None', true: 'True', false: 'False' }[word] ?? word;
    return list ? `list[${py}]` : py;
  });
}

export function pythonSignatureOf(tool: ToolDefinition, withReturnType = true): string {
  const schema = parametersOf(tool);
  const props = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const params = parameterNames(tool).map((name) => {
    const p = props[name] ?? ({} as { type?: string; default?: unknown; items?: { type?: string } });
    if (name === tool.rest) {
      const item = (p as { items?: { type?: string } }).items?.type;
      return `*${name}${item ? `: ${SCHEMA_TYPES[item] ?? item}` : ''}`;
    }
    // A schema given as is (an MCP tool's) may nest: its type is written in Python from the schema itself.
    const type = tool.parameters ? typeOf(p, 'python', name) : p.type ? (SCHEMA_TYPES[p.type] ?? p.type) : 'object';
    if (p.default !== undefined) return `${name}: ${type} = ${pythonLiteral(p.default)}`;
    if (required.has(name)) return `${name}: ${type}`;
    return `${name}: ${type.startsWith('Optional[') || type === 'Any' ? type : `Optional[${type}]`} = None`;
  });
  const returns = tool.returnSchema
    ? typeOf(tool.returnSchema, 'python')
    : (tool.pythonReturns ?? pythonType(tool.returns));
  return `def ${tool.name}(${params.join(', ')})${withReturnType ? ` -> ${returns}` : ''}`;
}
