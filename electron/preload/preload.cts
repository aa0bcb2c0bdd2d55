/**
 * The preload of the Parallax window. It runs sandboxed, so it is CommonJS and may require nothing but
 * 'electron': the channel lists below repeat shared/ipc-contract.ts on purpose, and a test holds them equal.
 * The page gets one method per invoke channel plus `on`; never ipcRenderer itself, and listeners never see
 * the IPC event object.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { EventChannel, EventMap, InvokeArgs, InvokeChannel, InvokeResult } from '../../shared/ipc-contract.js';

const EVENT_CHANNELS: readonly EventChannel[] = ['run:events', 'menu:command'];

// Electron prefixes main-process errors with "Error invoking remote method '…': Error: "; the page shows the
// message to the user, so only the host's own sentence is kept.
const REMOTE_PREFIX = /^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/;

function invoker<C extends InvokeChannel>(channel: C): (...args: InvokeArgs<C>) => Promise<InvokeResult<C>> {
  return async (...args) => {
    try {
      return (await ipcRenderer.invoke(channel, ...args)) as InvokeResult<C>;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(message.replace(REMOTE_PREFIX, ''));
    }
  };
}

const api = {
  'app:info': invoker('app:info'),
  'app:ready': invoker('app:ready'),
  'tasks:list': invoker('tasks:list'),
  'comparison:start': invoker('comparison:start'),
  'comparison:cancel': invoker('comparison:cancel'),
  'run:cancel': invoker('run:cancel'),
  'history:list': invoker('history:list'),
  'history:page': invoker('history:page'),
  'history:damaged': invoker('history:damaged'),
  'history:open': invoker('history:open'),
  'history:delete': invoker('history:delete'),
  'history:diff': invoker('history:diff'),
  'report:export': invoker('report:export'),
  'report:send-otlp': invoker('report:send-otlp'),
  'provider:models': invoker('provider:models'),
  'provider:test': invoker('provider:test'),
  'keys:set': invoker('keys:set'),
  'keys:status': invoker('keys:status'),
  'prices:get': invoker('prices:get'),
  'prices:set': invoker('prices:set'),
  'prices:remove': invoker('prices:remove'),
  'suites:list': invoker('suites:list'),
  'suites:open': invoker('suites:open'),
  'suites:export': invoker('suites:export'),
  'agents:view': invoker('agents:view'),
  'prices:reset': invoker('prices:reset'),
  'keys:use-env': invoker('keys:use-env'),
  'workspace:choose': invoker('workspace:choose'),
  'approval:answer': invoker('approval:answer'),
  'elicitation:answer': invoker('elicitation:answer'),

  /** Listens to a pushed channel; returns the function that stops listening. */
  on<E extends EventChannel>(channel: E, listener: (payload: EventMap[E]) => void): () => void {
    if (!EVENT_CHANNELS.includes(channel)) {
      throw new Error(`Unknown event channel "${String(channel)}". Listen to one of: ${EVENT_CHANNELS.join(', ')}.`);
    }
    if (typeof listener !== 'function')
      throw new Error(`parallax.on("${channel}", listener): the listener must be a function.`);
    const wrapped = (_event: IpcRendererEvent, payload: EventMap[E]): void => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
};

export type PreloadApi = typeof api;

contextBridge.exposeInMainWorld('parallax', api);
