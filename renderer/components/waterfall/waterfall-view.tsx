/**
 * The Waterfall tab: where each run's time went, every column of the shown trial on one shared time axis
 * (shared/waterfall.ts, from the recorded events only). Each span is a bar with its times in its title (hover)
 * and in words beside it; each column's spans are also a list a screen reader reads as sentences.
 */
import { useMemo, useState } from 'react';
import {
  BREAK_SHARE,
  legendKinds,
  runWaterfall,
  SPAN_KIND_WORDS,
  tickAnchor,
  waterfallAxis,
  type RunWaterfall,
  type WaterfallAxis,
  type WaterfallSpan,
} from '../../../shared/waterfall.js';
import { formatDuration } from '../../../shared/number-format.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors } from '../../store/selectors.js';
import type { ModeRun } from '../../store/derived.js';

const pct = (f: number) => `${(f * 100).toFixed(3)}%`;
const tickText = (v: number) => (v === 0 ? '0' : `${v < 0 ? '−' : ''}${formatDuration(Math.abs(v))}`);

function Bar({ span, axis }: { span: WaterfallSpan; axis: WaterfallAxis }) {
  const left = axis.position(span.start);
  const width = pct(Math.max(0, axis.position(span.end) - left));
  const wait =
    span.firstToken !== null
      ? `${(((span.firstToken - span.start) / Math.max(1e-9, span.end - span.start)) * 100).toFixed(3)}%`
      : null;
  // A start-up squeezed behind the axis's break is drawn as such: its length is the words beside it.
  const squeezed = span.kind === 'startup' && axis.broken;
  return (
    <div className="wf-track" aria-hidden="true">
      <div
        className={`wf-bar wf-${span.kind}${span.failed ? ' is-failed' : ''}${squeezed ? ' is-squeezed' : ''}`}
        style={{ left: pct(left), width }}
        title={span.text}
        data-testid="wf-bar"
      >
        {wait !== null ? <span className="wf-wait" style={{ width: wait }} /> : null}
      </div>
    </div>
  );
}

function Column({ run, wf, axis }: { run: ModeRun; wf: RunWaterfall; axis: WaterfallAxis }) {
  const headId = `wf-head-${run.column.key}`;
  return (
    <section
      className="wf-column"
      aria-labelledby={headId}
      data-testid={`wf-column-${run.column.key}`}
      data-run-id={run.runId}
    >
      <h2 id={headId} className="wf-column-head">
        <span className={`mode-swatch mode-${run.slot}`} aria-hidden="true" /> {run.column.label}
        <span className="muted small">
          {' '}
          · {wf.spans.length} spans, {tickText(wf.to)} from start to last event
        </span>
      </h2>
      {wf.spans.length === 0 ? (
        <p className="muted small">Nothing recorded yet.</p>
      ) : (
        <ul className="wf-rows">
          {wf.spans.map((s) => (
            <li
              key={s.id}
              className={`wf-row depth-${s.depth}`}
              data-testid="wf-span"
              data-kind={s.kind}
              data-span={s.id}
            >
              <span className="visually-hidden" data-testid="wf-text">
                {s.text}
              </span>
              <span className="wf-label" title={s.text} aria-hidden="true">
                {s.label}
                {s.failed ? <span className="wf-failed"> · failed</span> : null}
              </span>
              <Bar span={s} axis={axis} />
              <span className="wf-dur num" data-testid="wf-duration" aria-hidden="true">
                {formatDuration(Math.max(0, s.end - s.start))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function WaterfallView() {
  const runs = useApp(comparisonSelectors.modeRuns);
  const simulated = useApp(comparisonSelectors.simulated);
  const [toScale, setToScale] = useState(false);
  const built = useMemo(() => runs.map((r) => ({ run: r, wf: runWaterfall(r.run?.events ?? []) })), [runs]);
  const wfs = built.map((b) => b.wf);
  const axis = waterfallAxis(wfs, { toScale });
  // Whether the start-ups would crush the runs' spans drawn to scale: only then is there a choice to offer.
  const breakable = waterfallAxis(wfs).broken;
  return (
    // Focusable: the view scrolls, and keyboard users must be able to scroll it (axe scrollable-region-focusable).
    <div
      className="waterfall-view"
      data-testid="waterfall-view"
      data-axis={axis.broken ? 'broken' : 'to-scale'}
      tabIndex={0}
      role="region"
      aria-label="Waterfall: where each run's time went"
    >
      <p className="wf-intro muted small">
        Where each run&apos;s time went, on one time axis from each run&apos;s start (its worker&apos;s start-up comes
        before 0{axis.broken ? ', drawn short behind the break: its length is written beside it' : ''}). A model request
        is lighter while it waits for the first token, darker while it generates.
        {simulated ? ' Times are real; the model is simulated.' : ''}
      </p>
      <div className="wf-options">
        <ul className="wf-legend small" aria-label="Kinds of span">
          {legendKinds(wfs).map((k) => (
            <li key={k}>
              <span className={`wf-key wf-${k}`} aria-hidden="true" /> {SPAN_KIND_WORDS[k]}
            </li>
          ))}
          <li>
            <span className="wf-key wf-model is-failed" aria-hidden="true" /> failed
          </li>
        </ul>
        {breakable ? (
          <label className="chart-toggle small" data-testid="wf-to-scale">
            <input type="checkbox" checked={toScale} onChange={(e) => setToScale(e.target.checked)} /> Start-up to scale
          </label>
        ) : null}
      </div>
      <div className="wf-axis" aria-hidden="true">
        <span className="wf-label" />
        <div className="wf-track">
          {axis.broken ? (
            <span className="wf-break" style={{ width: pct(BREAK_SHARE) }} data-testid="wf-break">
              start-up
            </span>
          ) : null}
          {axis.ticks.map((t) => (
            <span
              key={t}
              className={`wf-tick at-${tickAnchor(axis.position(t))}`}
              style={{ left: pct(axis.position(t)) }}
            >
              {tickText(t)}
            </span>
          ))}
        </div>
        <span className="wf-dur" />
      </div>
      {built.map(({ run, wf }) => (
        <Column key={run.runId} run={run} wf={wf} axis={axis} />
      ))}
    </div>
  );
}
