/** A run's worker start-up in its column head: counted live while it happens, then the host's measured figure. */
import { useEffect, useState } from 'react';
import type { WorkerStartRecord } from '../../../shared/step-event.js';
import { fmtMs } from '../../lib/display-format.js';
import { IconSpinner } from '../common/icons.js';

/** Time since `active` became true, updated ten times a second; null while inactive. */
function useElapsed(active: boolean): number | null {
  const [since, setSince] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!active) {
      setSince(null);
      return;
    }
    const t0 = performance.now();
    setSince(t0);
    setNow(t0);
    const timer = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(timer);
  }, [active]);
  return since === null ? null : Math.max(0, now - since);
}

/** "Starting worker… 0.4 s" while the run's worker starts (counted from when this page saw the run begin). */
export function WorkerStarting({ active }: { active: boolean }) {
  const ms = useElapsed(active);
  if (!active || ms === null) return null;
  return (
    <div
      className="worker-starting muted small"
      data-testid="worker-starting"
      title="The run's worker process is starting: its start-up is its own figure, not part of the run's time"
    >
      <IconSpinner size={11} /> Starting worker… <span className="num">{(ms / 1000).toFixed(1)} s</span>
    </div>
  );
}

export function startupTitle(start: WorkerStartRecord): string {
  const where = start.pooled
    ? start.beforeRunMs > 0
      ? ` A warm worker: ${fmtMs(start.beforeRunMs)} of it (process start and engine load) happened before Run, ${fmtMs(start.ms - start.beforeRunMs)} after.`
      : ' A warm worker.'
    : ' Started by Run.';
  return `Worker start-up: process start to ready for this run, measured by the host; not part of the run's time.${where}`;
}
