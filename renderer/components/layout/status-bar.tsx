/** The bottom strip: host and connection, data folder, and what the open comparison is running on. */
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors, trialSelectors, uiSelectors } from '../../store/selectors.js';

export function StatusBar() {
  const conn = useApp(uiSelectors.connection);
  const info = useApp(uiSelectors.appInfo);
  const running = useApp(comparisonSelectors.isRunning);
  const meta = useApp(comparisonSelectors.meta);
  const trials = useApp(trialSelectors.count);
  const label =
    conn.status === 'open'
      ? info?.host === 'electron'
        ? 'Desktop host'
        : 'Web host'
      : conn.status === 'unauthorized'
        ? 'Not authorised'
        : conn.status === 'connecting'
          ? 'Connecting…'
          : 'Disconnected';
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span className={`conn-dot is-${conn.status}`} aria-hidden="true" />
      <span data-testid="connection-status">{label}</span>
      {info ? (
        <span className="status-item mono" title="Where comparisons are stored">
          {info.dataDir}
        </span>
      ) : null}
      <span className="status-spacer" />
      {meta ? (
        <span className="status-item">
          {running ? 'Running' : 'Idle'} · {meta.runs.length} run{meta.runs.length === 1 ? '' : 's'}
          {trials > 1 ? ` in ${trials} trials` : ''}
        </span>
      ) : null}
      {info ? <span className="status-item">v{info.version}</span> : null}
    </footer>
  );
}
