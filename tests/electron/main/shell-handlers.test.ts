import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS, type InvokeHandlers } from '../../../shared/ipc-contract.js';
import { shellHandlers } from '../../../electron/main/shell-handlers.js';

describe('shellHandlers', () => {
  const host = Object.fromEntries(
    INVOKE_CHANNELS.map((c) => [c, vi.fn(async () => `host:${c}`)]),
  ) as unknown as InvokeHandlers;
  const extra = { ...host, close: vi.fn(), dataDir: '/x' };

  it('forwards contract channels to the host and nothing else', async () => {
    const handlers = shellHandlers({
      host: extra,
      gate: { markReady: vi.fn() },
      info: () => ({ host: 'electron', version: '1', dataDir: '/u' }),
    });
    expect(Object.keys(handlers).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(await handlers['tasks:list']()).toBe('host:tasks:list');
    expect(await handlers['history:open']('c1')).toBe('host:history:open');
    expect(host['history:open']).toHaveBeenCalledWith('c1');
  });

  it('answers app:info itself and releases queued events on app:ready', async () => {
    const markReady = vi.fn();
    const handlers = shellHandlers({
      host,
      gate: { markReady },
      info: () => ({ host: 'electron', version: '0.1.0', dataDir: '/userData' }),
    });
    expect(await handlers['app:info']()).toEqual({ host: 'electron', version: '0.1.0', dataDir: '/userData' });
    expect(markReady).not.toHaveBeenCalled();
    await handlers['app:ready']();
    expect(markReady).toHaveBeenCalledOnce();
    expect(host['app:ready']).toHaveBeenCalled();
  });
});
