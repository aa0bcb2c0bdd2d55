/**
 * The open comparison's tabs. A finished comparison keeps its tabs mounted, hidden in place (same size,
 * rendering skipped, inert, out of the accessibility tree), so a tab switch paints what is already in the page:
 * no chart is rebuilt or re-measured. The tabs not visited yet are mounted ahead, one per idle period after the
 * first paint, in a transition React can interrupt, so a click during that work is answered first.
 * While a run streams only the shown tab is mounted, so hidden tabs cost nothing per batch.
 */
import { memo, startTransition, useEffect, useState, type ComponentType } from 'react';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors, trialSelectors, uiSelectors } from '../../store/selectors.js';
import type { MainTab } from '../../store/ui-slice.js';
import { AnswersView } from '../answers/answers-view.js';
import { ChartsView } from '../charts/charts-view.js';
import { TimelineView } from '../timeline/timeline-view.js';
import { WaterfallView } from '../waterfall/waterfall-view.js';

// Memoized: the views take no props, so a tab switch (which re-renders the panels) leaves the kept ones alone.
const VIEWS: Record<MainTab, ComponentType> = {
  timeline: memo(TimelineView),
  answers: memo(AnswersView),
  charts: memo(ChartsView),
  waterfall: memo(WaterfallView),
};
/** The order tabs are mounted ahead in: the heaviest and most opened first. */
const AHEAD: readonly MainTab[] = ['charts', 'timeline', 'waterfall', 'answers'];

type Idle = (cb: () => void) => () => void;
const onIdle: Idle =
  typeof requestIdleCallback === 'function'
    ? (cb) => {
        // With a deadline: idle periods can be rare while anything animates, and the work below yields anyway.
        const id = requestIdleCallback(cb, { timeout: 300 });
        return () => cancelIdleCallback(id);
      }
    : (cb) => {
        const id = setTimeout(cb, 50);
        return () => clearTimeout(id);
      };

/**
 * A pane mounted ahead is first laid out unseen (visibility hidden), so its charts measure their real size;
 * at the next idle period it moves to the kept state (rendering skipped), which keeps that layout.
 */
type PaneState = 'shown' | 'warming' | 'kept';

/** Keyed by the comparison's id, so a hidden tab never holds another comparison's state. */
export function TabPanels() {
  // Read here, not in App: a tab switch re-renders these panels and the toolbar, not the side panel.
  const tab = useApp(uiSelectors.mainTab);
  const running = useApp(comparisonSelectors.isRunning);
  const shown = useApp(trialSelectors.shown);
  const [mounted, setMounted] = useState<{ trial: typeof shown; tabs: readonly MainTab[]; warming: MainTab | null }>({
    trial: shown,
    tabs: [tab],
    warming: null,
  });
  // Another trial shown: the hidden tabs would all re-render with it at once; they are dropped and mounted
  // ahead again when the page is idle.
  if (mounted.trial !== shown) setMounted({ trial: shown, tabs: [tab], warming: null });
  else if (!mounted.tabs.includes(tab))
    setMounted({ ...mounted, tabs: [...mounted.tabs, tab], warming: mounted.warming === tab ? null : mounted.warming });

  const next = running ? undefined : AHEAD.find((t) => !mounted.tabs.includes(t));
  useEffect(() => {
    if (running || (!next && !mounted.warming)) return;
    let cancel = () => {};
    const step = () => {
      // A pane still drawing (the Tokens tab's charts after its first screen) stays laid out until it is done:
      // what it adds while kept would be styled only when it is shown. And the shown tab finishes its own
      // drawing first (a transition too, which React would batch with this one).
      const busy = (t: MainTab | null) => t && document.querySelector(`.tab-pane[data-tab="${t}"] [aria-busy="true"]`);
      if (busy(mounted.warming) || busy(tab)) return void (cancel = onIdle(step));
      startTransition(() =>
        setMounted((m) => {
          if (m.trial !== shown) return m;
          // One step per idle period: settle the pane laid out last, or mount the next one.
          if (m.warming) return { ...m, warming: null };
          return next && !m.tabs.includes(next) ? { ...m, tabs: [...m.tabs, next], warming: next } : m;
        }),
      );
    };
    cancel = onIdle(step);
    return () => cancel();
  }, [running, next, mounted.warming, shown, tab]);

  const kept = (Object.keys(VIEWS) as MainTab[]).filter((t) => t === tab || (!running && mounted.tabs.includes(t)));
  const settled = !running && !next && !mounted.warming;
  return (
    <>
      {kept.map((t) => {
        const View = VIEWS[t];
        const state: PaneState = t === tab ? 'shown' : t === mounted.warming ? 'warming' : 'kept';
        return (
          // data-settled on the shown pane: every other tab is mounted ahead (the renderer bench waits for it).
          <div
            key={t}
            className={`tab-pane is-${state}`}
            data-tab={t}
            data-settled={t === tab && settled ? 'true' : undefined}
            inert={t !== tab}
            aria-hidden={t === tab ? undefined : true}
          >
            <View />
          </div>
        );
      })}
    </>
  );
}
