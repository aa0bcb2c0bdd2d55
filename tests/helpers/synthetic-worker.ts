/**
 * A worker that speaks the real host protocol but runs no model: it posts a scripted stream of StepEvents.
 * The host benchmark measures worker → host throughput with it, and tests use it to reach paths a real run
 * reaches only by chance (a worker that ignores cancel, one that dies mid-stream).
 *
 *   --events N        events to post in all, run-started included (≥ 2); default 1000. With --then, all N
 *                     are posted before the ending, and no run-finished is among them
 *   --payload BYTES   size of each tool output; default 200
 *   --then hang|ignore-cancel|exit-early|crash
 *                     after the N events: wait for cancel · wait forever, ignoring cancel ·
 *                     exit without run-finished · throw
 *   --unsendable SEQ  the event with this seq carries a value the channel cannot encode (a BigInt)
 */
import type { RunSpec } from '../../shared/run-spec.js';
import type { StepEvent, StepEventInput } from '../../shared/step-event.js';
import { computeTotals } from '../../shared/summary.js';
import { runStartedOf } from '../../shared/run-started.js';
import { serveWorker, type RunIo } from '../../electron/worker/worker-runtime.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const total = Math.max(2, Number(arg('events', '1000')));
const payload = 'x'.repeat(Math.max(0, Number(arg('payload', '200'))));
const then = arg('then', 'finish');
const unsendable = Number(arg('unsendable', '-1'));

async function syntheticRun(spec: RunSpec, io: RunIo): Promise<void> {
  const startedAt = Date.now();
  const events: StepEvent[] = [];
  const push = (e: StepEventInput): void => {
    const event = { ...e, runId: spec.runId, seq: events.length, t: Date.now() - startedAt } as StepEvent;
    events.push(event);
    io.emit(event.seq === unsendable ? ({ ...event, unencodable: BigInt(1) } as unknown as StepEvent) : event);
  };
  push(runStartedOf(spec, { startedAt, systemPrompt: 'synthetic' }));
  const body = then === 'finish' ? total - 2 : total - 1;
  for (let i = 0; i < body && !(io.signal.aborted && then !== 'ignore-cancel'); i++) {
    const step = Math.floor(i / 3) + 1;
    if (i % 3 === 0)
      push({ type: 'model-request', step, attempt: 1, messageCount: step * 2, toolNames: ['read_file'] });
    else if (i % 3 === 1) {
      push({
        type: 'model-response',
        step,
        usage: { prompt: 100 * step, completion: 10 },
        latencyMs: 1,
        finishReason: 'tool_calls',
        text: '',
        toolCalls: [{ id: `c${step}`, name: 'read_file', arguments: '{"path":"a.txt"}' }],
      });
    } else {
      push({
        type: 'tool-finished',
        step,
        callId: `c${step}`,
        name: 'read_file',
        output: payload,
        rawSize: payload.length,
        truncated: false,
        durationMs: 0,
        error: null,
      });
    }
    // Yield now and then so cancel messages get through during a long stream.
    if (i % 500 === 499) await new Promise((r) => setImmediate(r));
  }
  if (then === 'hang' || then === 'ignore-cancel') {
    await new Promise<void>((resolve) => {
      if (then === 'hang') io.signal.addEventListener('abort', () => resolve(), { once: true });
      setInterval(() => {}, 60_000); // keep the process alive
    });
  }
  if (then === 'exit-early') process.exit(0);
  if (then === 'crash') throw new Error('synthetic crash');
  const cancelled = io.signal.aborted;
  push({
    type: 'run-finished',
    status: cancelled ? 'cancelled' : 'answered',
    answer: cancelled ? '' : 'synthetic answer',
    error: cancelled ? 'Cancelled by the user.' : undefined,
    validation: null,
    totals: computeTotals(events),
  });
}

serveWorker(async () => syntheticRun);
