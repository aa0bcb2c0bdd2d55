/**
 * Where an OTLP export goes, as the user gives it: the endpoint (checked and completed to its traces URL) and
 * `name=value` headers. Nothing else is imported here, so the CLI reads its flags without loading the reports.
 */

export interface OtlpTarget {
  /** A collector's base URL (…/v1/traces is added) or its full traces URL. */
  readonly endpoint: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Default 15 s. */
  readonly timeoutMs?: number;
}

/**
 * The traces URL of an endpoint, read as OTEL_EXPORTER_OTLP_ENDPOINT is: a URL already ending in /v1/traces is
 * used as it is; any other gets /v1/traces added to its path (http://127.0.0.1:4318 → …:4318/v1/traces,
 * Langfuse's …/api/public/otel → …/api/public/otel/v1/traces).
 */
export function otlpTracesUrl(endpoint: string): string {
  let u: URL;
  try {
    u = new URL(endpoint.trim());
  } catch {
    throw new Error(
      `"${endpoint}" is not a URL. Give the OTLP HTTP endpoint, e.g. http://127.0.0.1:4318 or https://cloud.langfuse.com/api/public/otel.`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(
      `The OTLP endpoint must be an http:// or https:// URL, not ${u.protocol}//. OTLP over gRPC is not supported: use the collector's HTTP port (4318).`,
    );
  if (u.username || u.password)
    throw new Error('Put credentials for the OTLP endpoint in a header (e.g. Authorization=Basic …), not in the URL.');
  const path = u.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1/traces')) u.pathname = `${path.replace(/\/v1$/, '')}/v1/traces`;
  return u.href;
}

/** One `name=value` header as the CLI takes it (`--otlp-header Authorization="Basic …"`). */
export function parseOtlpHeader(text: string): [string, string] {
  const at = text.indexOf('=');
  const name = at > 0 ? text.slice(0, at).trim() : '';
  // Only the name goes in the message: the value may be a secret.
  if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new Error(
      `An OTLP header is "name=value", e.g. --otlp-header "Authorization=Bearer …"; got one ${name ? `named "${name}" that is not a valid header name` : 'without a name'}.`,
    );
  const value = text.slice(at + 1).trim();
  // fetch would refuse it with the value in its message; this message names the header only.
  if (/[\r\n\0]/.test(value))
    throw new Error(`The value of the OTLP header "${name}" has a line break or a NUL: give it on one line.`);
  return [name, value];
}

export function otlpHeaders(list: readonly string[]): Record<string, string> {
  return Object.fromEntries(list.map(parseOtlpHeader));
}

/** A target as the page sends it, checked: an OTLP HTTP URL and string headers with valid names. */
export function checkOtlpTarget(input: unknown): OtlpTarget {
  const t = input as { endpoint?: unknown; headers?: unknown } | null;
  if (typeof t?.endpoint !== 'string' || !t.endpoint.trim())
    throw new Error('Give the OTLP endpoint URL, e.g. http://127.0.0.1:4318.');
  otlpTracesUrl(t.endpoint);
  const headers = t.headers ?? {};
  if (typeof headers !== 'object' || Array.isArray(headers) || headers === null)
    throw new Error('OTLP headers are name=value pairs.');
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw new Error(`The OTLP header "${name}" needs a text value.`);
    const [n, v] = parseOtlpHeader(`${name}=${value}`);
    checked[n] = v;
  }
  return { endpoint: t.endpoint.trim(), headers: checked };
}
