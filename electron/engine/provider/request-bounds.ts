/**
 * The time bounds of one streamed model request, the same for every protocol: the caller's cancel, the whole
 * request's deadline, and the longest silence between two data events. Whichever ends the request is named in
 * its error; any other failure is classified by the protocol's own `classify`, and the key removed from it.
 */
import type { ProviderInfo } from '../../../shared/run-spec.js';
import { ModelRequestError, RequestCancelledError, where } from './errors.js';
import type { ReadState } from './wire-reader.js';

export interface Bounds {
  /** Aborts the request when a bound is hit or the run is cancelled. */
  readonly signal: AbortSignal;
  /** Call on every data event (and once the headers arrive): restarts the idle timer. */
  readonly onData: () => void;
  /** Rejects when the request is interrupted; race every read against it. */
  readonly interrupted: Promise<never>;
}

export interface BoundsOptions {
  readonly idleTimeoutMs: number;
  readonly deadlineMs: number;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function withBounds<T>(
  provider: ProviderInfo,
  options: BoundsOptions,
  signal: AbortSignal,
  state: ReadState,
  work: (bounds: Bounds) => Promise<T>,
  classify: (err: unknown) => ModelRequestError | RequestCancelledError,
  redact: (text: string) => string,
): Promise<T> {
  const ctl = new AbortController();
  let reason: 'idle' | 'deadline' | 'cancel' | null = null;
  let rejectInterrupt: (e: Error) => void = () => undefined;
  const interrupted = new Promise<never>((_, reject) => (rejectInterrupt = reject));
  interrupted.catch(() => undefined);
  const interrupt = (why: 'idle' | 'deadline' | 'cancel') => {
    if (reason) return;
    reason = why;
    ctl.abort();
    rejectInterrupt(new Error(why));
  };
  const onCancel = () => interrupt('cancel');
  if (signal.aborted) throw new RequestCancelledError();
  signal.addEventListener('abort', onCancel, { once: true });
  const deadline = setTimeout(() => interrupt('deadline'), options.deadlineMs);
  let idle: NodeJS.Timeout | undefined;
  const onData = () => {
    clearTimeout(idle);
    idle = setTimeout(() => interrupt('idle'), options.idleTimeoutMs);
  };
  try {
    return await work({ signal: ctl.signal, onData, interrupted });
  } catch (err) {
    if (reason === 'cancel' || signal.aborted) throw new RequestCancelledError();
    const chunks = `${state.dataEvents} chunk${state.dataEvents === 1 ? '' : 's'}`;
    if (reason === 'idle')
      throw new ModelRequestError(
        `No data from ${where(provider)} for ${seconds(options.idleTimeoutMs)} after ${chunks}${state.comments ? ` (${state.comments} keep-alive comment${state.comments === 1 ? '' : 's'} only)` : ''}; the stream was abandoned. Raise "stream idle timeout" if the model thinks long before it answers.`,
        null,
        true,
        null,
        'timeout',
      );
    if (reason === 'deadline')
      throw new ModelRequestError(
        `The request to ${where(provider)} passed its ${seconds(options.deadlineMs)} deadline ${state.dataEvents ? `after ${chunks}` : 'before any data'}; it was abandoned. Raise "request deadline" for long replies.`,
        null,
        false,
        null,
        'timeout',
      );
    const e = classify(err);
    if (e instanceof ModelRequestError)
      throw new ModelRequestError(redact(e.message), e.status, e.retryable, e.retryAfterS, e.kind);
    throw e;
  } finally {
    clearTimeout(deadline);
    clearTimeout(idle);
    signal.removeEventListener('abort', onCancel);
  }
}
