/**
 * fetch_url's HTTP GET: Node's http/https with the guarded lookup (net-guard.ts) on every connection, one fresh
 * connection per request (no pooled socket reused for another host), redirects followed by hand so each hop is
 * checked again, the body decompressed and cut at a byte cap, the whole thing under one deadline.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BlockedAddressError, guardedLookup, literalProblem } from './net-guard.js';

export interface GetOptions {
  readonly signal: AbortSignal;
  /** Stop reading the (decompressed) body after this many bytes. */
  readonly maxBytes: number;
  readonly maxRedirects: number;
  /** Origins (scheme://host:port) that may be local: the run's own fixture page. */
  readonly localOrigins: ReadonlySet<string>;
  readonly headers: Record<string, string>;
  /** A POST with this body instead of a GET (web_search's Tavily backend); redirects are then not followed. */
  readonly postBody?: string;
}

export interface GetResult {
  readonly status: number;
  readonly contentType: string;
  readonly url: URL;
  readonly body: Uint8Array;
  /** The body was longer than maxBytes. */
  readonly cut: boolean;
}

/** A URL fetch_url will not fetch; the message is for the model. */
export class RefusedUrlError extends Error {
  override readonly name = 'RefusedUrlError';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function httpGet(start: URL, options: GetOptions): Promise<GetResult> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await request(url, options);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location || options.postBody !== undefined) {
      return {
        status: response.statusCode ?? 0,
        contentType: String(response.headers['content-type'] ?? ''),
        url,
        ...(await readBody(response, options.maxBytes)),
      };
    }
    response.destroy();
    if (hop >= options.maxRedirects)
      throw new RefusedUrlError(
        `${start.href} redirected more than ${options.maxRedirects} times; fetch_url stopped following it.`,
      );
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new RefusedUrlError(`${url.href} redirected to ${JSON.stringify(location)}, which is not a valid URL.`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new RefusedUrlError(
        `${url.href} redirected to a ${next.protocol} URL; fetch_url follows http:// and https:// only.`,
      );
    }
    url = next;
  }
}

function request(url: URL, options: GetOptions): Promise<IncomingMessage> {
  const local = options.localOrigins.has(url.origin);
  if (!local) {
    const problem = literalProblem(url);
    if (problem) return Promise.reject(new BlockedAddressError(url.hostname, url.hostname, problem));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: options.postBody === undefined ? 'GET' : 'POST',
      headers: { ...options.headers, 'accept-encoding': 'gzip, deflate, br' },
      // A fresh connection per request, resolved (and checked) by the guarded lookup unless it is the run's own page.
      agent: false,
      ...(local ? {} : { lookup: guardedLookup }),
      signal: options.signal,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(options.postBody);
  });
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/** Read at most `cap` decoded bytes, then stop the download (a decompression bomb stops there too). */
async function readBody(response: IncomingMessage, cap: number): Promise<{ body: Uint8Array; cut: boolean }> {
  const stream = decoded(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = cap - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        cut = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    response.destroy();
    if (stream !== response) stream.destroy();
  }
  return { body: Buffer.concat(chunks, size), cut };
}
