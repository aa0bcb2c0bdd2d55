/**
 * "Send to OTLP endpoint": the comparison's trace goes from the host to the endpoint the user typed, with the
 * headers they typed. Endpoint and headers live in this page's memory for the session only: headers often hold a
 * secret, and the page never writes them anywhere (no prefs, no logs).
 */
import type { OtlpSendResult } from '../../shared/ipc-contract.js';
import { invoke } from '../api/client.js';
import { appStore } from '../store/app-store.js';

const st = () => appStore.getState();

export function openOtlpDialog(comparisonId = st().active?.meta.id): void {
  st().setExportMenuOpen(false);
  if (comparisonId) st().setOtlpDialog(comparisonId);
}

export function closeOtlpDialog(): void {
  st().setOtlpDialog(null);
}

/** Headers as typed, one a line, "Name: value" or "name=value"; blank lines are skipped. */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const at = line.search(/[:=]/);
    if (at <= 0)
      throw new Error(`Header line ${i + 1} needs a name and a value, as "Authorization: Bearer …" or "name=value".`);
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  });
  return headers;
}

/** Resolves with what was sent; throws the host's sentence (refused, 4xx, timeout), which the dialog shows. */
export async function sendToOtlp(comparisonId: string, endpoint: string, headerText: string): Promise<OtlpSendResult> {
  st().setOtlpTarget({ endpoint, headers: headerText });
  const result = await invoke('report:send-otlp', comparisonId, {
    endpoint: endpoint.trim(),
    headers: parseHeaderLines(headerText),
  });
  st().pushToast({
    kind: result.rejected ? 'info' : 'success',
    title: 'Trace sent',
    detail: `${result.spans} spans to ${result.url}${result.rejected ? ` · ${result.rejected}` : ''}`,
  });
  return result;
}
