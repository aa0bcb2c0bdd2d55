/**
 * Recognise Parallax's own simulated model behind a plain base URL (e.g. `parallax sim-server` given as a
 * custom provider), so its figures are still labelled simulated. Only loopback URLs are probed: that is
 * where a simulated server runs, and no remote provider gets an extra request.
 */
import { SIM_FINGERPRINT } from './wire.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export async function isSimulatedEndpoint(baseUrl: string, timeoutMs = 5000): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}/models`);
  } catch {
    return false;
  }
  if (!LOOPBACK.has(url.hostname)) return false;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return false;
    const body = (await res.json()) as { data?: { owned_by?: unknown }[] };
    return Array.isArray(body.data) && body.data.some((m) => m?.owned_by === SIM_FINGERPRINT);
  } catch {
    return false;
  }
}
