/**
 * An MCP server's form (elicitation) on the terminal: the server's message, then y (fill it in), n (decline)
 * or c (cancel), then one line per field with what it takes. A value that does not fit is asked again, three
 * times at most (then the request is cancelled: closed input must not loop). The engine checks the answer
 * again (shared/mcp-elicitation.ts), so this prompt is a convenience, not the guard.
 */
import { readElicitValue, type ElicitField, type ElicitValue } from '../../shared/mcp-elicitation.js';
import { inert } from '../../shared/inert-text.js';
import type { ElicitAnswer, ElicitRequest } from '../engine/mcp/mcp-elicitation.js';
import type { TerminalPrompter } from './approvals.js';

const TRIES = 3;

function hint(f: ElicitField): string {
  const options = f.options?.map((o) => (o.label === o.value ? o.value : `${o.value} = ${o.label}`)).join(', ');
  const what =
    f.kind === 'boolean'
      ? 'y/n'
      : f.kind === 'choice'
        ? `one of: ${options}`
        : f.kind === 'choices'
          ? `comma-separated, of: ${options}`
          : f.kind === 'integer'
            ? 'a whole number'
            : f.kind === 'number'
              ? 'a number'
              : f.format
                ? f.format
                : 'text';
  const def =
    f.default !== undefined
      ? `, Enter for ${Array.isArray(f.default) ? f.default.join(',') : String(f.default)}`
      : f.required
        ? ''
        : ', Enter to leave out';
  return `[${what}${def}]`;
}

export function askElicitationOnTerminal(
  prompter: TerminalPrompter,
  label: string,
  request: ElicitRequest,
  signal: AbortSignal,
): Promise<ElicitAnswer> {
  return prompter.converse(async (question, write) => {
    write(`\n${inert(label)} MCP server ${inert(request.server)} asks you: ${inert(request.message)}\n`);
    for (let i = 0; ; i++) {
      const line = await question(
        `Answer its form (${request.fields.length} field${request.fields.length === 1 ? '' : 's'})? [y]es, [n]o (decline), [c]ancel: `,
        signal,
      );
      if (line === null) return { action: 'cancel' };
      const a = line.trim().toLowerCase();
      if (a === 'n' || a === 'no') return { action: 'decline' };
      if (a === 'c' || a === 'cancel' || i >= TRIES) return { action: 'cancel' };
      if (a === 'y' || a === 'yes') break;
    }
    const content: Record<string, ElicitValue> = {};
    for (const f of request.fields) {
      if (f.description) write(`  ${inert(f.description)}\n`);
      for (let tries = 0; ; tries++) {
        if (tries >= TRIES) return { action: 'cancel' };
        const line = await question(
          `  ${inert(f.title)}${f.required ? '' : ' (optional)'} ${inert(hint(f))}: `,
          signal,
        );
        if (line === null) return { action: 'cancel' };
        const typed = line.trim() === '' && f.default !== undefined ? f.default : line;
        const r = readElicitValue(f, typeof typed === 'number' ? String(typed) : typed);
        if (r.error) {
          write(`  ${inert(r.error)}\n`);
          continue;
        }
        if (r.value !== undefined) content[f.key] = r.value;
        break;
      }
    }
    return { action: 'accept', content };
  });
}
