/** Rounds side by side change latency: the HTML and Markdown reports say so in one line, and only then. */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { estimatedComparison } from '../../../helpers/cost-runs.js';

const LINE =
  'Rounds ran up to 4 at a time, sharing the cores: latency figures include that contention (token counts do not).';

describe('concurrency in reports', () => {
  it('prints the concurrency and what throttled it beside the start spread', async () => {
    const stored = estimatedComparison();
    const throttled = [
      'The provider answered 429 (rate limit): new rounds waited 2.0 s and rounds at once lowered from 4 to 2.',
    ];
    const concurrent = { ...stored, meta: { ...stored.meta, concurrency: 4, throttled } };
    const md = String((await buildReport(concurrent, 'md')).content);
    expect(md).toContain(`- **Concurrency:** ${LINE} Throttled: ${throttled[0]}`);
    const html = String((await buildReport(concurrent, 'html')).content);
    expect(html).toContain('<dt>Concurrency</dt>');
    expect(html).toContain(LINE);
  });

  it('says nothing for rounds run one at a time, so older reports stay as they were', async () => {
    const stored = estimatedComparison();
    expect(String((await buildReport(stored, 'md')).content)).not.toContain('Concurrency');
    expect(
      String((await buildReport({ ...stored, meta: { ...stored.meta, concurrency: 1 } }, 'html')).content),
    ).not.toContain('Concurrency');
  });
});
