/**
 * The "Tokens" tab: per-step bars, cumulative lines and the summary table of the shown trial. With several
 * trials, the averages over all of them come first, with the means and their 95 % intervals as a chart; "All" trades the per-step views for one bar group and one
 * outcome row per trial, and draws every run's cumulative line.
 */
import { startTransition, useEffect, useMemo, useState } from 'react';
import { useApp } from '../../store/app-store.js';
import { comparisonSummary } from '../../store/derived.js';
import { comparisonSelectors, trialSelectors } from '../../store/selectors.js';
import { displayStatus } from '../../store/trial-model.js';
import { AverageTable } from '../summary/average-table.js';
import { SummaryTable } from '../summary/summary-table.js';
import { TrialsTable } from '../summary/trials-table.js';
import { costShown } from '../summary/cost-parts.js';
import { CumulativeChart } from './cumulative-chart.js';
import { CompositionChart } from './composition-chart.js';
import { PerStepChart } from './per-step-chart.js';
import { StepMetricChart } from './step-metric-chart.js';
import { TrialTotalsChart } from './trial-totals-chart.js';
import { ModeMeansChart } from './mode-means-chart.js';
import { MatrixView } from '../summary/matrix-view.js';
import { buildMatrix, hasMatrix } from '../../../shared/matrix.js';

/**
 * False on the tab's first render, true once the browser has painted it: the charts below the first screen are
 * then rendered as a transition, which React splits into slices between frames, so the tab answers at once.
 */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return;
    // A timeout, not an animation frame: effects of a click run before its paint, and a frame callback too.
    const t = setTimeout(() => startTransition(() => setPainted(true)), 0);
    return () => clearTimeout(t);
  }, [painted]);
  return painted;
}

export function ChartsView() {
  const modeRuns = useApp(comparisonSelectors.modeRuns);
  const simulated = useApp(comparisonSelectors.simulated);
  const interrupted = useApp(comparisonSelectors.interrupted);
  const running = useApp(comparisonSelectors.isRunning);
  const trials = useApp(trialSelectors.count);
  const shown = useApp(trialSelectors.shown);
  const states = useApp(trialSelectors.states);
  const aggregates = useApp(trialSelectors.aggregates);
  const differences = useApp(trialSelectors.differences);
  const comparison = useMemo(() => comparisonSummary(modeRuns, interrupted), [modeRuns, interrupted]);
  const all = useApp(comparisonSelectors.allModeRuns);
  const openColumns = useApp((s) => s.openColumns);
  // The matrix covers every trial: a cell's figures are its runs' means, as the averages table's.
  const matrix = useMemo(() => {
    const runs = comparisonSummary(all, interrupted).runs;
    return hasMatrix(runs) ? buildMatrix(runs) : null;
  }, [all, interrupted]);
  const statuses = modeRuns.map((m) => displayStatus(m.run, m.runId, m.trial, states, interrupted));
  const waiting = modeRuns.filter((_, i) => statuses[i] === 'waiting').map((m) => m.runId);
  const scope = trials > 1 && shown !== 'all' ? `Trial ${shown}` : undefined;
  const painted = useAfterFirstPaint();
  // With trials the averages table fills the first screen; without, the per-step bars do. The rest follows the paint.

  const perStep = <PerStepChart key={shown} runs={comparison.runs} simulated={simulated} scope={scope} />;
  const single = shown !== 'all';
  // With trials the averages table fills the first screen; without, the per-step bars do. The rest follows the paint.
  const lead = trials > 1 ? null : single ? perStep : null;
  const means = trials > 1 ? <ModeMeansChart aggregates={aggregates} simulated={simulated} /> : null;
  const rest = !painted ? (
    <div className="charts-pending" data-testid="charts-pending">
      Drawing the charts…
    </div>
  ) : !single ? (
    <>
      {means}
      <TrialTotalsChart
        runs={modeRuns.map((m, i) => ({ trial: m.trial, summary: comparison.runs[i]! }))}
        simulated={simulated}
      />
      <TrialsTable
        runs={modeRuns.map((m, i) => ({ trial: m.trial, summary: comparison.runs[i]!, status: statuses[i]! }))}
        simulated={simulated}
      />
      <CumulativeChart runs={comparison.runs} simulated={simulated} trials={modeRuns.map((m) => m.trial)} />
    </>
  ) : (
    <>
      {means}
      {lead ? null : perStep}
      <CompositionChart runs={comparison.runs} simulated={simulated} scope={scope} />
      <div className={`charts-row ${costShown(comparison.runs) ? '' : 'is-single'}`}>
        <StepMetricChart runs={comparison.runs} metric="latency" simulated={simulated} />
        {costShown(comparison.runs) ? (
          <StepMetricChart runs={comparison.runs} metric="cost" simulated={simulated} />
        ) : null}
      </div>
      {/* Beyond two runs the summary's value and Δ columns need the full width. */}
      <div className={`charts-row ${comparison.runs.length > 2 ? 'is-stacked' : ''}`}>
        <SummaryTable comparison={comparison} simulated={simulated} scope={scope} waiting={waiting} />
        <CumulativeChart runs={comparison.runs} simulated={simulated} scope={scope} />
      </div>
    </>
  );

  return (
    <div
      className="charts-view"
      data-testid="charts-view"
      data-trial={trials > 1 ? String(shown) : undefined}
      aria-busy={painted ? undefined : true}
    >
      {matrix ? (
        <MatrixView
          matrix={matrix}
          simulated={simulated}
          onOpen={(cell) =>
            openColumns([...new Set(all.filter((m) => cell.runIds.includes(m.runId)).map((m) => m.column.key))])
          }
        />
      ) : null}
      {trials > 1 ? (
        <AverageTable
          aggregates={aggregates}
          differences={differences}
          trials={trials}
          running={running}
          simulated={simulated}
          showCost={costShown(comparison.runs)}
        />
      ) : null}
      {lead}
      {rest}
    </div>
  );
}
