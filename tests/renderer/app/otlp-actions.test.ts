/** "Send to OTLP endpoint" in the page: header lines parsed, the target kept in memory only, the host's words shown. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { InvokeChannel, OtlpSendResult } from '../../../shared/ipc-contract.js';
import { setTransport } from '../../../renderer/api/client.js';
import { fakeTransport } from '../fixtures/fake-transport.js';
import { openOtlpDialog, parseHeaderLines, sendToOtlp } from '../../../renderer/app/otlp-actions.js';
import { appStore } from '../../../renderer/store/app-store.js';

const calls: { channel: InvokeChannel; args: unknown[] }[] = [];
const accepted = async (): Promise<OtlpSendResult> => ({
  url: 'http://127.0.0.1:4318/v1/traces',
  spans: 12,
  bytes: 3456,
  status: 200,
  rejected: null,
});
let answer = accepted;
const fake = fakeTransport((channel, args) => {
  calls.push({ channel, args });
  return channel === 'report:send-otlp' ? answer() : undefined;
});

describe('send to an OTLP endpoint', () => {
  beforeEach(() => {
    calls.length = 0;
    // Each test starts from an endpoint that accepts, whichever ran before it.
    answer = accepted;
    setTransport(fake);
  });

  it('reads "Name: value" and "name=value" lines, skips blank ones and names a line without a name', () => {
    expect(parseHeaderLines('Authorization: Basic abc=\n\n x-team=core \n')).toEqual({
      Authorization: 'Basic abc=',
      'x-team': 'core',
    });
    expect(() => parseHeaderLines('Authorization: a\nno separator here')).toThrow(
      /Header line 2 needs a name and a value/,
    );
  });

  it('sends the comparison with the parsed headers, keeps what was typed for the session and says what went', async () => {
    openOtlpDialog('c1');
    expect(appStore.getState().otlpDialog).toBe('c1');
    const sent = await sendToOtlp('c1', ' http://127.0.0.1:4318 ', 'Authorization: Bearer t0k');
    expect(calls).toEqual([
      {
        channel: 'report:send-otlp',
        args: ['c1', { endpoint: 'http://127.0.0.1:4318', headers: { Authorization: 'Bearer t0k' } }],
      },
    ]);
    expect(sent.spans).toBe(12);
    expect(appStore.getState().otlpTarget).toEqual({
      endpoint: ' http://127.0.0.1:4318 ',
      headers: 'Authorization: Bearer t0k',
    });
    expect(appStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      title: 'Trace sent',
      detail: '12 spans to http://127.0.0.1:4318/v1/traces',
    });
  });

  it("passes the host's error on for the dialog to show", async () => {
    answer = async () => {
      throw new Error(
        'The OTLP endpoint http://x/v1/traces answered 401. The receiver refused the credentials: check the headers (e.g. Authorization).',
      );
    };
    await expect(sendToOtlp('c1', 'http://x', '')).rejects.toThrow(/answered 401/);
  });
});
