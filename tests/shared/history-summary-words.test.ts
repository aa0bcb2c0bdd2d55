import { describe, expect, it } from 'vitest';
import {
  historyNotes,
  historySummaryText,
  summaryTotals,
  summaryTotalsText,
} from '../../shared/history-summary-words.js';
import type { HistorySummaryEvent } from '../../shared/step-event.js';

const event = (over: Partial<HistorySummaryEvent> = {}): HistorySummaryEvent => ({
  type: 'history-summary',
  runId: 'r',
  seq: 3,
  t: 10,
  step: 5,
  fromStep: 1,
  toStep: 3,
  replacedMessages: 9,
  replacedTokens: 1234,
  text: '[summary of earlier steps 1–3 …]\nread a.log',
  usage: { prompt: 1300, completion: 150 },
  latencyMs: 40,
  error: null,
  ...over,
});

describe('history summary words', () => {
  it('says what a summary replaced and what its request cost, simulated when it is', () => {
    expect(historySummaryText(event(), true)).toBe(
      "History summary before step 5: steps 1–3 (9 messages, 1,234 tokens) replaced by a summary the run's model wrote; the request cost 1,300 prompt + 150 completion tokens (in the run's totals, simulated).",
    );
    expect(
      historySummaryText(event({ fromStep: 1, toStep: 1, replacedMessages: 1, usageSource: 'estimated' })),
    ).toContain('step 1 (1 message, 1,234 tokens)');
    expect(historySummaryText(event({ usageSource: 'estimated' }))).toContain('≈1,300 prompt + ≈150 completion');
  });

  it('a failed request says it failed and why, never as a summary', () => {
    const failed = event({
      error: 'The summary request failed (HTTP 500); the history goes on whole.',
      usage: null,
      replacedMessages: 0,
      replacedTokens: 0,
      text: '',
    });
    const text = historySummaryText(failed);
    expect(text).toBe(
      'History summary before step 5 failed: The summary request failed (HTTP 500); the history goes on whole.',
    );
    expect(text).not.toContain('replaced by');
    const t = summaryTotals([event(), failed, { type: 'model-response' }])!;
    expect(t).toEqual({ requests: 2, failed: 1, prompt: 1300, completion: 150, estimated: false });
    expect(summaryTotalsText(t)).toBe(
      "History summaries: 2 requests to the run's model (1 failed): 1,300 prompt + 150 completion tokens. They are in the run's totals and not in the steps above.",
    );
    expect(summaryTotals([{ type: 'model-response' }])).toBeNull();
  });

  it('composition notes: cleared tokens summed over requests; a summary that cost more than it replaced says so', () => {
    const base = { system: 1, tools: 1, task: 1, assistant: 1, toolResults: 1, other: 1 };
    expect(historyNotes([{ promptComposition: base }], false)).toEqual([]);
    expect(
      historyNotes(
        [
          { promptComposition: { ...base, cleared: { results: 1, tokens: 300 } } },
          { promptComposition: { ...base, cleared: { results: 2, tokens: 700 } } },
        ],
        false,
      ),
    ).toEqual(['cleared tool results: 1,000 tokens not re-sent, over its requests']);
    const summarized = { fromStep: 1, toStep: 1, replacedTokens: 80, tokens: 120 };
    expect(
      historyNotes(
        [{ promptComposition: { ...base, summarized } }, { promptComposition: { ...base, summarized } }],
        true,
      ),
    ).toEqual([
      'history summary: step 1 sent as a 120-token summary instead of 80 tokens; 80 tokens more sent (simulated) over 2 requests (in Earlier replies)',
    ]);
  });
});
