/**
 * Messages between the host and a worker process. The API key travels only inside `init`, over the IPC
 * channel — never in argv, the environment, files or logs.
 *
 * host → worker: preload (a standing warm pool's worker: also load, in idle time, what a tool-search run needs
 *                before release) · init (spec + key, and the web search backend's key if any; `elicitation`:
 *                someone can answer an MCP server's form) · go (start now) · cancel · approval-answer (the user's answer to an
 *                approval-requested event the worker sent) · elicitation-answer (the person's answer to an
 *                elicitation-requested event)
 * worker → host: loaded (the engine is loaded, before any spec: a warm pool's worker is ready to hand out) ·
 *                ready (loaded for its spec, waiting for go) · events (a batch, in seq order) · fatal (why it is dying)
 */
import type { RunSpec } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import type { ElicitAction } from '../../shared/mcp-elicitation.js';

/** The variable both launchers set to the host's pid: the worker's watchdog ends it when that process is gone. */
export const HOST_PID_ENV = 'PARALLAX_HOST_PID';

export type HostToWorker =
  | { readonly type: 'preload' }
  | {
      readonly type: 'init';
      readonly spec: RunSpec;
      readonly apiKey: string | null;
      readonly searchKey?: string | null;
      readonly elicitation?: boolean;
    }
  | { readonly type: 'go' }
  | {
      readonly type: 'cancel';
      /** Why, when not the user's cancel (recorded as the run's error). */ readonly reason?: string;
    }
  | {
      readonly type: 'approval-answer';
      readonly approvalId: string;
      readonly decision: 'allow' | 'deny' | 'allow-comparison';
    }
  | {
      readonly type: 'elicitation-answer';
      readonly elicitationId: string;
      readonly action: ElicitAction;
      readonly content?: Readonly<Record<string, unknown>>;
    };

export type WorkerToHost =
  | { readonly type: 'loaded' }
  | { readonly type: 'ready' }
  | { readonly type: 'events'; readonly events: readonly StepEvent[] }
  | { readonly type: 'fatal'; readonly message: string };

export function isWorkerToHost(value: unknown): value is WorkerToHost {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { type?: unknown; events?: unknown; message?: unknown };
  if (v.type === 'ready' || v.type === 'loaded') return true;
  if (v.type === 'events') return Array.isArray(v.events);
  if (v.type === 'fatal') return typeof v.message === 'string';
  return false;
}

export function isHostToWorker(value: unknown): value is HostToWorker {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as {
    type?: unknown;
    spec?: unknown;
    approvalId?: unknown;
    decision?: unknown;
    elicitationId?: unknown;
    action?: unknown;
    content?: unknown;
  };
  if (v.type === 'go' || v.type === 'cancel' || v.type === 'preload') return true;
  if (v.type === 'approval-answer') {
    return (
      typeof v.approvalId === 'string' &&
      (v.decision === 'allow' || v.decision === 'deny' || v.decision === 'allow-comparison')
    );
  }
  if (v.type === 'elicitation-answer') {
    // The content is checked against the form by the engine; here only its shape.
    return (
      typeof v.elicitationId === 'string' &&
      (v.action === 'accept' || v.action === 'decline' || v.action === 'cancel') &&
      (v.content === undefined || (typeof v.content === 'object' && v.content !== null && !Array.isArray(v.content)))
    );
  }
  return v.type === 'init' && typeof v.spec === 'object' && v.spec !== null;
}
