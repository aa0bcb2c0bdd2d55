/** Messages between a worker and its compute thread (compute-thread.ts ↔ thread-main.ts). */
import type { RankedName, ToolDoc } from '../../tool-search/rank.js';

export type ComputeRequest =
  | { readonly id: number; readonly job: 'calc'; readonly expression: string }
  /** Load the calculator's math library (once per thread), apart from any expression's time limit. */
  | { readonly id: number; readonly job: 'calc-load' }
  | { readonly id: number; readonly job: 'html'; readonly html: string }
  | {
      readonly id: number;
      readonly job: 'search';
      readonly query: string;
      readonly docs: readonly ToolDoc[];
      readonly limit: number;
    };

export type ComputeJob = ComputeRequest['job'];

/** A job's input: its request without id and job. */
export type ComputeInputs = { readonly [J in ComputeJob]: Omit<Extract<ComputeRequest, { job: J }>, 'id' | 'job'> };

/** What each job answers. A calc answer is a number, or the reason the value is not one (for the model). */
export interface ComputeValues {
  readonly calc: { readonly number: number } | { readonly problem: string };
  readonly 'calc-load': true;
  readonly html: { readonly title: string; readonly text: string };
  readonly search: RankedName[];
}

export type ComputeReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | {
      readonly id: number;
      readonly ok: false;
      readonly error: string;
      /** 'input': the model's input was refused (message meant for it); 'stack': nested too deeply; else a failure. */
      readonly kind: 'input' | 'stack' | 'failed';
    };
