/**
 * A tool call stopped by a cancel never returned anything to the model: the report says so instead of
 * calling its abort message an error the model received.
 */
import { describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../../shared/step-event.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { comparisonOf } from '../../../helpers/cost-runs.js';

function withCancelledCall(events: StepEvent[]): StepEvent[] {
  return events.map((e) =>
    e.type === 'tool-finished'
      ? {
          ...e,
          output: 'Error: the run was cancelled',
          error: 'the run was cancelled',
          durationMs: 1500,
          cancelled: true as const,
        }
      : e,
  );
}

describe('a call stopped by a cancel, in the HTML report', () => {
  it('reads "aborted by cancel", and an ordinary call still shows what went back to the model', async () => {
    const stored = comparisonOf('20261201-130000-cafe0002', [
      {
        runId: 'r-react',
        mode: 'react',
        steps: [
          { usage: { prompt: 100, completion: 10, cached: 0, reasoning: 0 } },
          { usage: { prompt: 130, completion: 5, cached: 0, reasoning: 0 } },
        ],
        status: 'cancelled',
      },
      {
        runId: 'r-code',
        mode: 'code',
        steps: [
          { usage: { prompt: 90, completion: 20, cached: 0, reasoning: 0 } },
          { usage: { prompt: 120, completion: 5, cached: 0, reasoning: 0 } },
        ],
      },
    ]);
    const events = stored.events.map((e) => e);
    const react = withCancelledCall(events.filter((e) => e.runId === 'r-react'));
    const html = (
      await buildReport({ ...stored, events: [...react, ...events.filter((e) => e.runId === 'r-code')] }, 'html')
    ).content;
    const section = (runId: string) => html.slice(html.indexOf(`<dd class="mono">${runId}</dd>`));
    const reactPart = section('r-react').slice(0, section('r-react').indexOf('</section>'));
    expect(reactPart).toContain('aborted by cancel: nothing went back to the model');
    expect(reactPart).not.toContain('Tool error:');
    expect(reactPart).not.toContain('chars returned to the model');
    const codePart = section('r-code');
    expect(codePart).toContain('5 chars returned to the model');
    expect(codePart).not.toContain('aborted by cancel');
  });
});
