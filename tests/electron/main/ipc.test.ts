import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS, type InvokeHandlers } from '../../../shared/ipc-contract.js';
import {
  handle,
  INVOKE_ARITY,
  registerInvokeHandlers,
  send,
  senderFrom,
  type IpcMainLike,
} from '../../../electron/main/ipc.js';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

function fakeIpc() {
  const handlers = new Map<string, Listener>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const invoke = (channel: string, url: string | null, ...args: unknown[]) =>
    handlers.get(channel)!({ senderFrame: url === null ? null : { url } } as unknown as IpcMainInvokeEvent, ...args);
  return { ipc, handlers, invoke };
}

const trusted = senderFrom(['app://parallax']);

describe('handle', () => {
  it('passes the typed arguments, never the event, to the handler', async () => {
    const f = fakeIpc();
    const handler = vi.fn(async (id: string) => ({ meta: { id } }) as never);
    handle(f.ipc, 'history:open', handler, trusted);
    await f.invoke('history:open', 'app://parallax/index.html', 'c-1');
    expect(handler.mock.calls).toEqual([['c-1']]);
  });

  it('refuses frames from other origins and frames that are gone, naming the channel', async () => {
    const f = fakeIpc();
    const handler = vi.fn(async () => undefined);
    handle(f.ipc, 'history:delete', handler, trusted);
    await expect(f.invoke('history:delete', 'https://evil.example/', 'c-1')).rejects.toThrow(
      /Refused 'history:delete'.*evil\.example/,
    );
    await expect(f.invoke('history:delete', null, 'c-1')).rejects.toThrow(/no longer exists/);
    await expect(f.invoke('history:delete', 'file:///tmp/x.html', 'c-1')).rejects.toThrow(/Refused/);
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses the wrong number of arguments', async () => {
    const f = fakeIpc();
    const handler = vi.fn(async () => undefined);
    handle(f.ipc, 'keys:set', handler, trusted);
    await expect(f.invoke('keys:set', 'app://parallax/', 'openai')).rejects.toThrow(/takes 3 argument\(s\) but got 1/);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('registerInvokeHandlers', () => {
  it('registers every contract channel once and removes them all', async () => {
    const f = fakeIpc();
    const handlers = Object.fromEntries(
      INVOKE_CHANNELS.map((c) => [c, vi.fn(async () => c)]),
    ) as unknown as InvokeHandlers;
    const off = registerInvokeHandlers(f.ipc, handlers, trusted);
    expect([...f.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    for (const channel of INVOKE_CHANNELS) {
      const args = Array.from({ length: INVOKE_ARITY[channel] }, (_, i) => `a${i}`);
      await expect(f.invoke(channel, 'app://parallax/index.html', ...args)).resolves.toBe(channel);
    }
    off();
    expect(f.handlers.size).toBe(0);
  });

  it('has an arity for exactly the contract channels', () => {
    expect(Object.keys(INVOKE_ARITY).sort()).toEqual([...INVOKE_CHANNELS].sort());
  });
});

describe('send', () => {
  it('pushes to a live page and skips a destroyed one', () => {
    const live = { isDestroyed: () => false, send: vi.fn() };
    const dead = { isDestroyed: () => true, send: vi.fn() };
    expect(send(live, 'menu:command', 'run')).toBe(true);
    expect(send(dead, 'menu:command', 'run')).toBe(false);
    expect(live.send.mock.calls).toEqual([['menu:command', 'run']]);
    expect(dead.send).not.toHaveBeenCalled();
  });
});
