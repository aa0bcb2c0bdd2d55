import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/ipc-contract.js';
import type { ParallaxApi } from '../../../renderer/api/parallax-api.js';
import type { PreloadApi } from '../../../electron/preload/preload.cjs';

const SOURCE = fileURLToPath(new URL('../../../electron/preload/preload.cts', import.meta.url));

type Listener = (...args: unknown[]) => void;

/**
 * Loads the preload the way a sandboxed renderer does: compiled to CommonJS, in a fresh context, with a
 * `require` that knows only 'electron' (here a recorder of contextBridge and ipcRenderer calls).
 */
function loadPreload(invokeImpl: (channel: string, ...args: unknown[]) => Promise<unknown> = async () => undefined) {
  const { outputText } = ts.transpileModule(readFileSync(SOURCE, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    fileName: 'preload.cts',
  });
  const exposed: { key: string; api: Record<string, unknown> }[] = [];
  const listeners = new Map<string, Listener[]>();
  const ipcRenderer = {
    invoke: vi.fn(invokeImpl),
    on: vi.fn((channel: string, fn: Listener) => void listeners.set(channel, [...(listeners.get(channel) ?? []), fn])),
    removeListener: vi.fn(
      (channel: string, fn: Listener) =>
        void listeners.set(
          channel,
          (listeners.get(channel) ?? []).filter((l) => l !== fn),
        ),
    ),
  };
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.push({ key, api }) },
    ipcRenderer,
  };
  const module = { exports: {} as Record<string, unknown> };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name} (sandboxed preloads can only require electron)`);
  };
  vm.runInNewContext(`(function (require, module, exports) {${outputText}\n})`, { Error, Promise, String })(
    sandboxRequire,
    module,
    module.exports,
  );
  const emit = (channel: string, payload: unknown) => {
    for (const fn of listeners.get(channel) ?? []) fn({ sender: 'ipc-event-object', ports: [] }, payload);
  };
  return { exposed, ipcRenderer, listeners, required, emit };
}

describe('preload', () => {
  it('requires nothing but electron and exposes one object as window.parallax', () => {
    const p = loadPreload();
    expect(p.required).toEqual(['electron']);
    expect(p.exposed.map((e) => e.key)).toEqual(['parallax']);
  });

  it('offers exactly one method per invoke channel, plus on', () => {
    const { api } = loadPreload().exposed[0];
    expect(Object.keys(api).sort()).toEqual([...INVOKE_CHANNELS, 'on'].sort());
    for (const key of Object.keys(api)) expect(typeof api[key], key).toBe('function');
    expect(api).not.toHaveProperty('ipcRenderer');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('invoke');
  });

  it('forwards each method to its own channel with its arguments', async () => {
    const p = loadPreload(async (channel, ...args) => ({ channel, args }));
    const api = p.exposed[0].api as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const channel of INVOKE_CHANNELS) {
      await expect(api[channel]('x', 2)).resolves.toEqual({ channel, args: ['x', 2] });
    }
    expect(p.ipcRenderer.invoke).toHaveBeenCalledTimes(INVOKE_CHANNELS.length);
  });

  it("strips Electron's remote-method prefix from errors so the host's sentence reaches the page", async () => {
    const p = loadPreload(async () => {
      throw new Error(
        "Error invoking remote method 'history:delete': Error: Comparison c1 is still running. Cancel it first, then delete it.",
      );
    });
    const api = p.exposed[0].api as Record<string, (...a: unknown[]) => Promise<unknown>>;
    await expect(api['history:delete']('c1')).rejects.toThrow(
      /^Comparison c1 is still running\. Cancel it first, then delete it\.$/,
    );
  });

  it('passes only the payload to listeners, never the IPC event, and unsubscribes', () => {
    const p = loadPreload();
    const api = p.exposed[0].api as unknown as ParallaxApi;
    const got: unknown[][] = [];
    const off = api.on('menu:command', (...args: unknown[]) => void got.push(args));
    p.emit('menu:command', 'run');
    expect(got).toEqual([['run']]);
    off();
    p.emit('menu:command', 'cancel');
    expect(got).toEqual([['run']]);
    expect(p.listeners.get('menu:command')).toEqual([]);
  });

  it('refuses unknown event channels and non-function listeners', () => {
    const api = loadPreload().exposed[0].api as unknown as { on: (c: string, l: unknown) => unknown };
    expect(() => api.on('ipc:raw', () => undefined)).toThrow(
      /Unknown event channel "ipc:raw".*run:events, menu:command/,
    );
    expect(() => api.on('run:events', 'nope')).toThrow(/must be a function/);
  });

  it('lists the same event channels as the contract', () => {
    const p = loadPreload();
    const api = p.exposed[0].api as unknown as ParallaxApi;
    for (const channel of EVENT_CHANNELS) expect(() => api.on(channel, () => undefined)).not.toThrow();
  });

  it("has the renderer's ParallaxApi type", () => {
    // Checked by tsc (npm run typecheck): the preload's own type must satisfy what the renderer expects.
    expectTypeOf<PreloadApi>().toMatchTypeOf<ParallaxApi>();
    const check = (api: PreloadApi): ParallaxApi => api;
    expect(typeof check).toBe('function');
  });
});
