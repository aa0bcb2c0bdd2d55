/**
 * The compute thread: host-side work a model's input can make slow or huge runs here, where the worker can
 * stop it at a deadline (terminate) and where a V8 heap limit applies. Three jobs: evaluate a calculator
 * expression, turn an HTML page into text, rank tools for search_tools. One request at a time, in order.
 */
import { parentPort } from 'node:worker_threads';
import { rankDocs } from '../../tool-search/rank.js';
import { CalcError, evaluateExpression, loadCalculator } from './calc.js';
import { numberResult } from './calc-result.js';
import type { ComputeReply, ComputeRequest } from './protocol.js';

const port = parentPort!;

/** The HTML converter, loaded with the first page to convert (most runs convert none). */
let html: typeof import('../html-convert.js') | null = null;

function handle(request: ComputeRequest): ComputeReply {
  try {
    switch (request.job) {
      case 'calc':
        return {
          id: request.id,
          ok: true,
          value: numberResult(request.expression, evaluateExpression(request.expression)),
        };
      case 'calc-load':
        return { id: request.id, ok: true, value: loadCalculator() };
      case 'html':
        return {
          id: request.id,
          ok: true,
          value: { title: html!.htmlTitle(request.html), text: html!.htmlToText(request.html) },
        };
      case 'search':
        return { id: request.id, ok: true, value: rankDocs(request.query, request.docs, request.limit) };
    }
  } catch (error) {
    const stack = error instanceof RangeError && /call stack/i.test(error.message);
    return {
      id: request.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      kind: error instanceof CalcError ? 'input' : stack ? 'stack' : 'failed',
    };
  }
}

// Requests are answered in order; a page to convert first waits for the converter to load (inside its job's time limit).
let queue = Promise.resolve();
port.on('message', (request: ComputeRequest) => {
  queue = queue.then(async () => {
    try {
      if (request.job === 'html') html ??= await import('../html-convert.js');
    } catch (error) {
      port.postMessage({
        id: request.id,
        ok: false,
        error: `could not load the HTML converter: ${String(error)}`,
        kind: 'failed',
      } satisfies ComputeReply);
      return;
    }
    port.postMessage(handle(request));
  });
});
// mathjs is not loaded here: it is a third of a worker's memory, and most runs never call calculator.
port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies ComputeReply);
