/**
 * The invoke handlers of the desktop shell: the host's, with the two channels the shell answers itself —
 * 'app:info' (Electron's version and userData) and 'app:ready' (start pushing queued events to the page).
 */
import type { AppInfo, InvokeHandlers } from '../../shared/ipc-contract.js';
import { INVOKE_CHANNELS } from '../../shared/ipc-contract.js';
import type { PageGate } from '../host/page-gate.js';

export interface ShellHandlerOptions {
  readonly host: InvokeHandlers;
  readonly gate: Pick<PageGate, 'markReady'>;
  readonly info: () => AppInfo;
}

export function shellHandlers(options: ShellHandlerOptions): InvokeHandlers {
  const handlers = {} as Record<string, unknown>;
  // Only contract channels are copied: the host object also carries close(), whenDone() and dataDir.
  for (const channel of INVOKE_CHANNELS) handlers[channel] = options.host[channel];
  const own: Pick<InvokeHandlers, 'app:info' | 'app:ready'> = {
    'app:info': async () => options.info(),
    'app:ready': async () => {
      await options.host['app:ready']();
      options.gate.markReady();
    },
  };
  return { ...(handlers as InvokeHandlers), ...own };
}
