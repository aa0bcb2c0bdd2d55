/** The "Tokens" tab: per-step bars, cumulative lines and the summary table of the active comparison. */
import { useMemo } from 'react';
import { useApp } from '../../store/app-store.js';
import { comparisonSummary } from '../../store/derived.js';
import { comparisonSelectors } from '../../store/selectors.js';
import { SummaryTable } from '../summary/summary-table.js';
import { CumulativeChart } from './cumulative-chart.js';
import { PerStepChart } from './per-step-chart.js';

export function ChartsView() {
  const modeRuns = useApp(comparisonSelectors.modeRuns);
  const simulated = useApp(comparisonSelectors.simulated);
  const interrupted = useApp(comparisonSelectors.interrupted);
  const comparison = useMemo(() => comparisonSummary(modeRuns, interrupted), [modeRuns, interrupted]);
  return (
    <div className="charts-view" data-testid="charts-view">
      <PerStepChart runs={comparison.runs} simulated={simulated} />
      <div className="charts-row">
        <SummaryTable comparison={comparison} simulated={simulated} />
        <CumulativeChart runs={comparison.runs} simulated={simulated} />
      </div>
    </div>
  );
}
