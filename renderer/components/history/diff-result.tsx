/**
 * A baseline diff's result (shared/comparison-diff.ts, as `parallax diff` prints it): the headline, then per
 * column its figures then and now. Colour follows the verdict and never contradicts it: red only for a clear
 * regression (or a column that fails now), green only for a clear improvement, amber for a change the wrong way
 * without a verdict; a change the right way without a verdict stays uncoloured. Every colour has its words and a
 * arrow beside it (▲ up, ▼ down, = unchanged, then "worse" or "better"), so nothing is told by colour alone.
 */
import {
  figureCell,
  TREND_WORDS,
  type ColumnDiff,
  type ComparisonDiff,
  type FigureDiff,
} from '../../../shared/comparison-diff.js';
import { directionOf } from '../../../shared/diff-steps.js';
import { SimBadge } from '../common/badges.js';
import { DiffStepsView } from './diff-steps-view.js';

const FLAG_WORDS: Record<ColumnDiff['flag'], string> = {
  regressed: 'Regressed: worse',
  improved: 'Improved: better',
  'no-verdict': 'No verdict',
  unchanged: '= Unchanged',
  'baseline-only': 'Only in the baseline',
  'comparison-only': 'Only in this comparison',
};
const flagTone = (f: ColumnDiff['flag']) => (f === 'regressed' ? 'bad' : f === 'improved' ? 'ok' : 'neutral');

/** The tone of a figure's change: see the file's comment. */
export function changeTone(f: FigureDiff): 'bad' | 'ok' | 'warn' | 'neutral' {
  if (f.trend === 'regressed' || f.trend === 'now-fails') return 'bad';
  if (f.trend === 'improved') return 'ok';
  return directionOf(f.figure, f.diff) === 'worse' ? 'warn' : 'neutral';
}

/** The change in signs and words: "▲ +15 % worse", "▲ +20 points better", "▼ −8 % better", "= same". */
export function changeText(f: FigureDiff): string {
  const way = directionOf(f.figure, f.diff);
  if (way === null) return '—';
  if (way === 'same') return '= same';
  const d = f.diff!;
  const sign = d > 0 ? '+' : '−';
  const size =
    f.figure === 'passRate'
      ? `${sign}${Math.abs(Math.round(d * 100))} points`
      : f.percent !== null
        ? `${sign}${Math.abs(f.percent) < 1 ? Math.abs(f.percent).toFixed(1) : Math.round(Math.abs(f.percent))} %`
        : sign;
  return `${d > 0 ? '▲' : '▼'} ${size} ${way}`;
}

function FigureTable({ c, simulated }: { c: ColumnDiff; simulated: boolean }) {
  return (
    <table className="data-table diff-table">
      <caption className="visually-hidden">{c.label}: figures in the baseline and now</caption>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col" className="num">
            Baseline
          </th>
          <th scope="col" className="num">
            Now
          </th>
          <th scope="col">Change</th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {c.figures.map((f) => {
          const tone = changeTone(f);
          return (
            <tr
              key={f.figure}
              data-figure={f.figure}
              data-trend={f.trend}
              data-direction={directionOf(f.figure, f.diff) ?? 'none'}
              title={f.sentence}
            >
              <th scope="row">{f.label}</th>
              <td className="num">{figureCell(f, 'baseline', simulated)}</td>
              <td className="num">{figureCell(f, 'comparison', simulated)}</td>
              <td className={`diff-change tone-${tone}`} data-testid="diff-change">
                {changeText(f)}
              </td>
              <td className={`diff-trend tone-${tone}`}>
                {TREND_WORDS[f.trend]}
                <span className="visually-hidden">: {f.sentence}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function DiffResult({ diff }: { diff: ComparisonDiff }) {
  const worst = diff.columns.some((c) => c.flag === 'regressed')
    ? 'bad'
    : diff.columns.some((c) => c.flag === 'improved')
      ? 'ok'
      : 'neutral';
  return (
    <div className="diff-result" data-testid="baseline-diff">
      <div className={`diff-headline tone-${worst}`} role="status">
        {diff.headline.map((l) => (
          <p key={l}>{l}</p>
        ))}
        {diff.simulated ? (
          <p className="muted small">
            <SimBadge /> Token figures come from the simulated model (simulated).
          </p>
        ) : null}
      </div>
      <div className="diff-columns">
        {diff.columns.map((c) => (
          <section
            key={c.key}
            className={`diff-col tone-${flagTone(c.flag)} ${c.figures.length ? '' : 'is-one-side'}`}
            data-testid={`baseline-diff-${c.key}`}
            data-flag={c.flag}
            aria-labelledby={`diff-col-${c.key}`}
          >
            <h3 id={`diff-col-${c.key}`}>
              {c.label} <span className={`pill diff-flag tone-${flagTone(c.flag)}`}>{FLAG_WORDS[c.flag]}</span>
            </h3>
            <p className="small">
              {c.summary}
              {c.matchedBy === 'label' ? ' Matched by label.' : ''}
            </p>
            {c.figures.length ? <FigureTable c={c} simulated={diff.simulated} /> : null}
          </section>
        ))}
      </div>
      <DiffStepsView diff={diff} />
    </div>
  );
}
