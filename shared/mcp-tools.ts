/**
 * What an MCP server says about each of its tools beyond its schema: a display title and the behaviour hints
 * of MCP's tool annotations. Recorded in run-started, shown in `parallax tools` and the timeline, and read by
 * the approval policy's `mcp-readonly` / `mcp-destructive` entries. Hints are the server's word, not checked.
 */

/** MCP's ToolAnnotations (hints; absent fields take MCP's defaults, see mcpToolKind). */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One MCP tool of a run, as run-started records it. */
export interface McpToolRecord {
  /** The name the model calls (`<server>_<tool>`). */
  readonly name: string;
  readonly server: string;
  /** The server's own name for it. */
  readonly tool: string;
  readonly title?: string;
  readonly annotations?: McpToolAnnotations;
}

/**
 * How the approval policy sees a tool: 'readonly' when it says readOnlyHint; 'destructive' when it may change
 * its world destructively (destructiveHint true, or not given: MCP's default is true for a tool that is not
 * read-only); 'other' for a tool that changes things additively (destructiveHint false).
 */
export type McpToolKind = 'readonly' | 'destructive' | 'other';

export function mcpToolKind(annotations: McpToolAnnotations | undefined): McpToolKind {
  if (annotations?.readOnlyHint === true) return 'readonly';
  return annotations?.destructiveHint === false ? 'other' : 'destructive';
}

/** Short words for the hints a tool states: "read-only", "destructive", "idempotent", "open world". */
export function annotationWords(annotations: McpToolAnnotations | undefined): string[] {
  if (!annotations) return [];
  const words: string[] = [];
  if (annotations.readOnlyHint === true) words.push('read-only');
  else if (annotations.destructiveHint === true) words.push('destructive');
  else if (annotations.destructiveHint === false) words.push('additive');
  if (annotations.idempotentHint === true) words.push('idempotent');
  if (annotations.openWorldHint === true) words.push('open world');
  return words;
}

/** The annotations as tools/list sent them, kept to the known fields with the right types (a server is not trusted). */
export function cleanAnnotations(raw: unknown, title?: unknown): McpToolAnnotations | undefined {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const out: { -readonly [K in keyof McpToolAnnotations]?: McpToolAnnotations[K] } = {};
  const t = typeof title === 'string' ? title : source.title;
  if (typeof t === 'string' && t.trim()) out.title = t.trim().slice(0, 200);
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof source[key] === 'boolean') out[key] = source[key];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
