/**
 * One MCP tool as a ToolDefinition: its JSON input schema is what the model sees (ReAct's schema, the Code
 * Mode signature, the text prompt, search_tools' documents) and, turned into zod, what its arguments are
 * checked against before the call; its output schema, when it has one, is the return type in signatures.
 */
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServerConfig } from '../../../shared/mcp-config.js';
import { cleanAnnotations, type McpToolRecord } from '../../../shared/mcp-tools.js';
import { schemaType, ToolError, type ToolDefinition, type ToolImage, type ToolReporter } from '../tools/tool.js';
import { IMAGE_LIMITS, IMAGE_TYPES } from '../../../shared/model-capabilities.js';
import { base64Bytes, cleanProgress, contentRecords, progressThrottle } from './mcp-content.js';
import { callClock, type CallClock } from './call-clock.js';

/**
 * A call that reports progress is kept alive past its call timeout (each report restarts it), up to ten call
 * timeouts in all and never more than 10 minutes.
 */
export function maxTotalCallMs(callTimeoutMs: number): number {
  return Math.min(callTimeoutMs * 10, 600_000);
}

/** The SDK's own request timeout, set beyond any call clock (the largest a timer takes). */
const SDK_TIMEOUT_OFF_MS = 2 ** 31 - 1;

/** A tool as tools/list describes it (the fields Parallax reads). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: unknown;
  readonly execution?: { readonly taskSupport?: string };
}

/** A result is cut here, like read_file's cap; the loop then truncates the tool message as for any tool. */
export const MCP_RESULT_MAX_CHARS = 1024 * 1024;

interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly mimeType?: string;
  readonly data?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly size?: number;
  readonly resource?: {
    readonly uri?: string;
    readonly text?: string;
    readonly blob?: string;
    readonly mimeType?: string;
  };
}

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The arguments' schema as sent to the model: the server's, without the keys providers reject. */
function inputParameters(info: McpToolInfo): Record<string, unknown> {
  const { $schema: _drop, ...schema } = info.inputSchema;
  return { type: 'object', properties: {}, ...schema };
}

/** zod from the JSON schema, for the checks and messages every tool gets; an unusual schema is checked by the server alone. */
function argsOf(parameters: Record<string, unknown>): z.ZodObject {
  try {
    const schema = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
    if (schema instanceof z.ZodObject) return schema;
  } catch {
    // fall through
  }
  return z.looseObject({});
}

/**
 * One content block as text for the model: text as is, an embedded text resource inline, a resource link with its
 * name, description and MIME type, and binary data (images, audio, blobs) described by type and size.
 */
function blockText(block: ContentBlock): string {
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'resource': {
      const r = block.resource ?? {};
      if (typeof r.text === 'string') return r.text;
      const what = [str(r.mimeType) || 'binary data', typeof r.blob === 'string' ? sizeText(base64Bytes(r.blob)) : '']
        .filter(Boolean)
        .join(', ');
      return `[embedded resource ${str(r.uri)}: ${what}]`;
    }
    case 'resource_link': {
      const about = [str(block.mimeType), typeof block.size === 'number' ? sizeText(block.size) : '']
        .filter(Boolean)
        .join(', ');
      const name = str(block.title) || str(block.name);
      return `[resource link ${str(block.uri)}${name ? ` "${name}"` : ''}${about ? ` (${about})` : ''}${str(block.description) ? `: ${str(block.description)}` : ''}]`;
    }
    default: {
      const bytes = typeof block.data === 'string' ? `, ${sizeText(base64Bytes(block.data))}` : '';
      const note = block.type === 'image' && imageNotes.has(block) ? `: ${imageNotes.get(block)}` : '';
      return `[${block.type} ${str(block.mimeType) || 'data'}${bytes}${note}]`;
    }
  }
}

/** What an image block's line says about where the image went (set by `takeImages` for this call's blocks). */
const imageNotes = new WeakMap<object, string>();

/**
 * A result's images for a model that reads them (report.images): each of a type both APIs take and within
 * IMAGE_LIMITS goes as an image part, and its line in the text says so; any other image's line says why not.
 */
function takeImages(content: unknown, report: ToolReporter | undefined): void {
  const blocks = Array.isArray(content) && report ? (content as ContentBlock[]) : [];
  const images: ToolImage[] = [];
  for (const b of blocks) {
    if (b.type !== 'image') continue;
    const mime = typeof b.mimeType === 'string' ? b.mimeType.toLowerCase() : '';
    const data = typeof b.data === 'string' ? b.data : '';
    let why: string | null = null;
    if (!report!.images) why = `described only: ${report!.noImages ?? 'not sent to the model'}`;
    else if (!(IMAGE_TYPES as readonly string[]).includes(mime))
      why = `described only: ${mime || 'an unnamed type'} is not one of ${IMAGE_TYPES.join(', ')}`;
    else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) why = 'described only: its data is not base64';
    else if (base64Bytes(data) > IMAGE_LIMITS.bytes)
      why = `described only: larger than ${sizeText(IMAGE_LIMITS.bytes)}`;
    else if (images.length >= IMAGE_LIMITS.perCall)
      why = `described only: a call sends at most ${IMAGE_LIMITS.perCall} images`;
    if (why) imageNotes.set(b, why);
    else {
      images.push({ mimeType: mime, data });
      imageNotes.set(b, `image ${images.length}, sent to the model as an image`);
    }
  }
  if (images.length) report!.images!(images);
}

function capped(text: string): string {
  return text.length <= MCP_RESULT_MAX_CHARS
    ? text
    : `${text.slice(0, MCP_RESULT_MAX_CHARS)}\n…[cut: the MCP result had ${text.length} characters]`;
}

/**
 * What a call returns to the mode: the structured content when the server sends it (Code Mode programs get an
 * object), else the text blocks joined. An isError result is a ToolError with the server's text.
 */
export function callResult(
  result: { content?: unknown; structuredContent?: unknown; isError?: boolean; toolResult?: unknown },
  label: string,
): unknown {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const text = capped(blocks.map(blockText).join('\n'));
  if (result.isError) throw new ToolError(`${label} returned an error: ${text || '(no message)'}`);
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    const json = JSON.stringify(result.structuredContent);
    return json.length <= MCP_RESULT_MAX_CHARS ? result.structuredContent : capped(json);
  }
  if (result.toolResult !== undefined) return result.toolResult;
  return text;
}

/** What run-started records of the tool: its names, title and annotations, checked (the server is not trusted). */
export function mcpRecord(server: McpServerConfig, info: McpToolInfo, name: string): McpToolRecord {
  const annotations = cleanAnnotations(info.annotations);
  const title =
    typeof info.title === 'string' && info.title.trim() ? info.title.trim().slice(0, 200) : annotations?.title;
  return {
    name,
    server: server.name,
    tool: info.name,
    ...(title ? { title } : {}),
    ...(annotations ? { annotations } : {}),
  };
}

/**
 * The calls of one server's tools running now, each by its reporter with its clock: a request the server sends
 * meanwhile (sampling) belongs to the latest of them, and pauses that call's timeout while it is answered.
 */
export type ActiveCalls = Map<ToolReporter, CallClock>;

export function mcpTool(
  server: McpServerConfig,
  info: McpToolInfo,
  name: string,
  client: Client,
  active: ActiveCalls = new Map(),
): ToolDefinition {
  const parameters = inputParameters(info);
  // The name the model calls comes first; the server's own name for the tool follows, for the person reading.
  const label = `${name} (MCP tool "${info.name}" of server "${server.name}")`;
  return {
    name,
    description: info.description?.trim() || info.title || `The ${info.name} tool of the MCP server "${server.name}".`,
    args: argsOf(parameters),
    parameters,
    returns: info.outputSchema ? schemaType(info.outputSchema) : 'string',
    ...(info.outputSchema ? { returnSchema: info.outputSchema } : {}),
    source: server.name,
    mcp: mcpRecord(server, info, name),
    async run(args, ctx) {
      // A signal of its own per call: the SDK leaves its listener on the signal it is given, and a run's
      // signal serves every call of the run.
      const call = new AbortController();
      const stop = (): void => call.abort(ctx.signal.reason);
      ctx.signal.addEventListener('abort', stop, { once: true });
      // The call timeout is ours (call-clock.ts): it pauses while the client answers the server's requests.
      const clock = callClock(server.callTimeoutMs, maxTotalCallMs(server.callTimeoutMs));
      const timedOut = (): void => call.abort(clock.signal.reason);
      clock.signal.addEventListener('abort', timedOut, { once: true });
      let result;
      let progress: { progress: number; total?: number; message?: string } | null = null;
      const report = ctx.report;
      const live = report ? progressThrottle((p) => report.progress(name, p)) : null;
      if (report) active.set(report, clock);
      try {
        // onprogress makes the SDK send a progress token; each report restarts the call timeout, up to a total.
        result = await client.callTool({ name: info.name, arguments: args }, undefined, {
          timeout: SDK_TIMEOUT_OFF_MS,
          signal: call.signal,
          onprogress: (p) => {
            clock.touch();
            const clean = cleanProgress(p);
            if (!clean) return;
            progress = clean;
            live?.report(clean);
          },
        });
      } catch (error) {
        // The SDK wraps an abort's reason in an MCP error of its own: the clock's words say it plainly.
        const message = clock.signal.aborted
          ? (clock.signal.reason as Error).message
          : error instanceof Error
            ? error.message
            : String(error);
        const last = progress as { progress: number; total?: number } | null;
        const reached = last
          ? ` (its last progress report: ${last.progress}${last.total !== undefined ? ` of ${last.total}` : ''})`
          : '';
        throw new ToolError(`${label} failed: ${message}${reached}`, { cause: error });
      } finally {
        ctx.signal.removeEventListener('abort', stop);
        clock.signal.removeEventListener('abort', timedOut);
        clock.stop();
        live?.flush();
        if (report) active.delete(report);
      }
      const records = contentRecords((result as { content?: unknown }).content);
      if (records.length) ctx.report?.content?.(records);
      takeImages((result as { content?: unknown }).content, ctx.report);
      return callResult(result as Parameters<typeof callResult>[0], label);
    },
  };
}
