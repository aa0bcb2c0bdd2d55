/**
 * The polite live region: says when the open comparison started, when a run needs approval or failed, and
 * when the comparison finished (store/announcements.ts), never per token. When it finishes and the control
 * that had focus went away with the run (a Cancel or Allow button), focus moves to the selected view tab, so
 * a keyboard user carries on from the results instead of from the top of the page.
 */
import { useEffect, useRef, useState } from 'react';
import { appStore, type AppState } from '../../store/app-store.js';
import { announcements, type LiveSnapshot } from '../../store/announcements.js';
import { runStatus } from '../../store/run-model.js';
import { comparisonSelectors, trialSelectors } from '../../store/selectors.js';
import { statusText, type AnyStatus } from './badges.js';

function snapshot(s: AppState): LiveSnapshot {
  const active = s.active;
  if (!active) return { comparisonId: null, live: false, runs: [] };
  const several = trialSelectors.count(s) > 1;
  return {
    comparisonId: active.meta.id,
    live: active.source === 'live',
    runs: comparisonSelectors.allModeRuns(s).map((m) => ({
      runId: m.runId,
      label: several ? `${m.column.label}, trial ${m.trial}` : m.column.label,
      status: active.interrupted.includes(m.runId) ? 'interrupted' : runStatus(m.run),
      pendingApprovals: m.run?.pendingApprovals ?? 0,
      pendingForms: m.run?.pendingForms ?? 0,
    })),
  };
}

const words = (status: string) => statusText(status as AnyStatus) ?? status;

export function LiveAnnouncer() {
  const [message, setMessage] = useState('');
  const last = useRef<LiveSnapshot | null>(null);
  useEffect(() => {
    last.current = snapshot(appStore.getState());
    return appStore.subscribe((state) => {
      const next = snapshot(state);
      const prev = last.current;
      last.current = next;
      const said = announcements(prev, next, words);
      if (said.length === 0) return;
      // The same words twice in a row would not be read again: a trailing no-break space makes them new.
      setMessage((m) => {
        const text = said.join(' ');
        return m === text ? `${text}\u00a0` : text;
      });
      if (said.some((t) => t.startsWith('Comparison finished'))) {
        requestAnimationFrame(() => {
          const focused = document.activeElement;
          if (focused && focused !== document.body && focused.isConnected) return;
          document.getElementById(`tab-${appStore.getState().mainTab}`)?.focus();
        });
      }
    });
  }, []);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-announcer">
      {message}
    </div>
  );
}
