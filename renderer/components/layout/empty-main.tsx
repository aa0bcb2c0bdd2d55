/** What the main area shows before any comparison is open: what to do, and the shortcuts. */
import { MODE_IDS } from '../../../shared/run-spec.js';
import { modeColor } from '../../lib/mode-palette.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors } from '../../store/selectors.js';
import { IconSpinner } from '../common/icons.js';
import { Kbd } from '../common/kbd.js';

const HERO_HEIGHTS = [26, 44, 34, 18];

export function EmptyMain() {
  const starting = useApp(comparisonSelectors.starting);
  if (starting)
    return (
      <div className="empty main-empty" role="status">
        <IconSpinner size={22} />
        <p className="empty-title">Starting one worker per mode…</p>
      </div>
    );
  return (
    <div className="empty main-empty" data-testid="main-empty">
      {/* A prompt/completion bar pair per mode, as in the charts. */}
      <div className="hero-mark" aria-hidden="true">
        {MODE_IDS.map((m, i) => (
          <span className="hero-pair" key={m}>
            <span className="bar" style={{ height: HERO_HEIGHTS[i % HERO_HEIGHTS.length], background: modeColor(m) }} />
            <span className="bar" style={{ height: 8 + (i % 3) * 4, background: modeColor(m, 'completion') }} />
          </span>
        ))}
      </div>
      <p className="empty-title">Run one task through several agent modes</p>
      <p className="empty-text">
        Pick a task and a model on the left, then run. Each mode gets its own worker and workspace; their steps stream
        in side by side, with the tokens of every request.
      </p>
      <dl className="shortcut-list">
        <div>
          <dt>Run the comparison</dt>
          <dd>
            <Kbd keys={['Mod', 'Enter']} />
          </dd>
        </div>
        <div>
          <dt>Cancel while running</dt>
          <dd>
            <Kbd keys={['Esc']} />
          </dd>
        </div>
        <div>
          <dt>Switch Timeline / Tokens</dt>
          <dd>
            <Kbd keys={['←', '→']} /> <span className="muted">on the tabs</span>
          </dd>
        </div>
        <div>
          <dt>Fold the side panel, for more columns</dt>
          <dd>
            <Kbd keys={['Mod', 'B']} />
          </dd>
        </div>
      </dl>
    </div>
  );
}
