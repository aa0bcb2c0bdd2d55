/**
 * The runs side by side, one column per variant (a plain comparison: per mode), with their steps aligned by step number: each virtual row holds
 * step N of every run, so its height is the tallest of them. Only the rows in view are mounted
 * (@tanstack/react-virtual), which keeps a 1,000-step run as light as a 5-step one.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RunWarningEvent } from '../../../shared/step-event.js';
import { useApp } from '../../store/app-store.js';
import { runSummary, timelineRows, type ModeRun, type TimelineRow } from '../../store/derived.js';
import { comparisonSelectors, trialSelectors } from '../../store/selectors.js';
import { displayStatus } from '../../store/trial-model.js';
import type { AnyStatus } from '../common/badges.js';
import { ColumnHeader } from './column-header.js';
import { ResultCell, SetupCell } from './run-cells.js';
import { StepCard } from './step-card.js';
import { priceKind } from '../../../shared/pricing.js';
import { ColumnOverflowHints, useColumnView } from './column-overflow.js';
import { NoStepsMatch, StepFilterBar } from './step-filter-bar.js';
import { useStepFilter } from './use-step-filter.js';
import { useTextHighlight } from './use-text-highlight.js';

const NO_WARNINGS: readonly RunWarningEvent[] = [];
const rowKey = (r: TimelineRow) => (r.kind === 'step' ? `s${r.step}` : r.kind);

/**
 * Below this width a step card stops being readable (tool arguments, code, inner-call tables); five modes fit
 * a 1280 px window with the side panel folded. More columns than fit (every trial at once) scroll sideways
 * inside the timeline, never the window.
 */
export const MIN_COLUMN_PX = 224;
const COLUMN_GAP_PX = 12;

function StepCell({ m, step, status }: { m: ModeRun; step: number; status: AnyStatus }) {
  const run = m.run;
  const view = run ? run.steps[run.stepIndex[step] ?? -1] : undefined;
  const done = status !== 'running' && status !== 'pending';
  if (!view) {
    const last = run?.steps[run.steps.length - 1]?.step;
    // A live run that has not reached this step yet leaves the cell empty; a finished one says why.
    if (!done) return <div />;
    return (
      <div className="step-gap">{`No step ${step}: finished after ${last ?? 0} step${last === 1 ? '' : 's'}.`}</div>
    );
  }
  const truncateChars = run?.started?.settings.truncateChars ?? null;
  const started = run?.started ?? null;
  return (
    <StepCard
      runId={m.runId}
      step={view}
      truncateChars={truncateChars}
      stopped={done}
      price={started?.price ?? null}
      priceKind={priceKind(started?.provider ?? null, started?.price)}
      simulated={started?.provider.simulated === true}
    />
  );
}

export function TimelineView() {
  const modeRuns = useApp(comparisonSelectors.modeRuns);
  const interrupted = useApp(comparisonSelectors.interrupted);
  const simulated = useApp(comparisonSelectors.simulated);
  const states = useApp(trialSelectors.states);
  const trials = useApp(trialSelectors.count);
  const allRows = useMemo(() => timelineRows(modeRuns.map((m) => m.run)), [modeRuns]);
  const { rows, tools, result } = useStepFilter(modeRuns, allRows);
  const statuses = modeRuns.map((m) => displayStatus(m.run, m.runId, m.trial, states, interrupted));
  // Several runs of one mode side by side (every trial): each head says which trial it is.
  const mixed = new Set(modeRuns.map((m) => m.trial)).size > 1;
  const summaries = modeRuns.map((m) => (m.run ? runSummary(m.run) : null));
  const live = statuses.some((s) => s === 'running' || s === 'pending');

  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useTextHighlight(
    listRef,
    useApp((s) => s.stepFilter.text),
  );
  const follow = useRef(true);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const ro = new ResizeObserver(() => setScrollMargin(list.offsetTop));
    ro.observe(list.previousElementSibling ?? list);
    setScrollMargin(list.offsetTop);
    return () => ro.disconnect();
  }, []);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'setup' ? 64 : rows[i]?.kind === 'result' ? 140 : 220),
    getItemKey: (i) => rowKey(rows[i]!),
    overscan: 4,
    scrollMargin,
    gap: 10,
  });

  // While runs are live, keep the newest step in view unless the user scrolled away to read; once they end,
  // nothing moves. Only the user's own scrolling (wheel, keys, the scroll bar) decides whether to follow:
  // the view's own jumps and rows growing as they are measured do not.
  const lastUserInput = useRef(0);
  const version = modeRuns.reduce((n, m) => n + (m.run?.events.length ?? 0), 0);
  useEffect(() => {
    if (!live || !follow.current) return;
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    // Rows measured after the jump change the height: land on the real end once they are laid out.
    const id = requestAnimationFrame(() => {
      const el = scrollRef.current;
      if (el && follow.current) el.scrollTop = el.scrollHeight;
    });
    return () => cancelAnimationFrame(id);
  }, [rows.length, version, live, virtualizer]);
  const userInput = () => {
    lastUserInput.current = performance.now();
  };

  // A matrix cell opened some columns: bring the first into view and mark them until another is opened.
  const focused = useApp((s) => s.focusedColumns);
  useEffect(() => {
    if (!focused) return;
    const head = scrollRef.current?.querySelector<HTMLElement>(
      `.column-head[data-column="${CSS.escape(focused.keys[0] ?? '')}"]`,
    );
    head?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [focused]);

  const n = Math.max(1, modeRuns.length);
  const {
    hidden,
    reach,
    scrolled: measureColumns,
    reveal,
  } = useColumnView(scrollRef, n, MIN_COLUMN_PX + COLUMN_GAP_PX);
  const wrapCode = useApp((s) => s.wrapCode);
  const cols = `var(--gutter-w) repeat(${n}, minmax(0, 1fr))`;
  const wide = { minWidth: `calc(var(--gutter-w) + ${n} * ${MIN_COLUMN_PX + COLUMN_GAP_PX}px)` };
  return (
    <div className={`timeline-frame ${hidden.left ? 'has-left' : ''} ${hidden.right ? 'has-right' : ''}`}>
      <StepFilterBar tools={tools} result={result} />
      {result && result.rows.length === 0 ? <NoStepsMatch /> : null}
      <div
        className={`timeline ${wrapCode ? 'is-wrap' : ''}`}
        ref={scrollRef}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (performance.now() - lastUserInput.current < 600)
            follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
          measureColumns();
        }}
        onWheel={userInput}
        onKeyDown={userInput}
        onPointerDown={userInput}
        onTouchMove={userInput}
        data-follow={live ? String(follow.current) : undefined}
        data-testid="timeline"
        tabIndex={0}
        aria-label={
          trials > 1
            ? 'Timeline of steps, one column per run of the shown trial'
            : 'Timeline of steps, one column per mode'
        }
      >
        <div className="timeline-head" style={{ gridTemplateColumns: cols, ...wide }}>
          <div className="gutter-head" aria-hidden="true">
            Step
          </div>
          {modeRuns.map((m, i) => (
            <ColumnHeader
              key={m.runId}
              column={m.column}
              slot={m.slot}
              focused={focused?.keys.includes(m.column.key) ?? false}
              runId={m.runId}
              trial={m.trial}
              showTrial={mixed}
              status={statuses[i]!}
              summary={summaries[i]!}
              simulated={simulated}
              pendingApprovals={m.run?.pendingApprovals ?? 0}
              pendingForms={m.run?.pendingForms ?? 0}
            />
          ))}
        </div>
        <div ref={listRef} className="timeline-rows" style={{ height: virtualizer.getTotalSize(), ...wide }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className={`timeline-row row-${row.kind}`}
                data-testid={row.kind === 'step' ? 'step-row' : `${row.kind}-row`}
                data-step={row.kind === 'step' ? row.step : undefined}
                style={{
                  gridTemplateColumns: cols,
                  transform: `translateY(${v.start - virtualizer.options.scrollMargin}px)`,
                }}
              >
                <div className="gutter">
                  {row.kind === 'step' ? row.step : row.kind === 'setup' ? 'Setup' : 'Result'}
                </div>
                {modeRuns.map((m, i) => {
                  // A column far beside the view keeps its place in the row, empty, until it is scrolled near.
                  if (i < reach.first || i > reach.last)
                    return <div className="cell is-out" key={m.runId} data-mode={m.mode} data-column={m.column.key} />;
                  return (
                    <div
                      className="cell"
                      key={m.runId}
                      data-mode={m.mode}
                      data-column={m.column.key}
                      data-match={row.kind === 'step' && result ? String(result.matches[i]!.has(row.step)) : undefined}
                    >
                      {row.kind === 'setup' ? (
                        <SetupCell
                          runId={m.runId}
                          started={m.run?.started ?? null}
                          firstRequestPrompt={summaries[i]?.firstRequestPrompt ?? null}
                          firstRequestEstimated={summaries[i]?.perStep[0]?.usageSource === 'estimated'}
                          waiting={statuses[i] === 'waiting'}
                        />
                      ) : row.kind === 'result' ? (
                        <ResultCell
                          runId={m.runId}
                          status={statuses[i]!}
                          finished={m.run?.finished ?? null}
                          warnings={m.run?.warnings ?? NO_WARNINGS}
                          gaps={m.run?.gaps ?? 0}
                          totals={summaries[i]?.totals ?? null}
                          cost={summaries[i]?.cost ?? null}
                          usageSource={summaries[i]?.usageSource ?? 'reported'}
                        />
                      ) : (
                        <StepCell m={m} step={row.step} status={statuses[i]!} />
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      <ColumnOverflowHints hidden={hidden} reveal={reveal} />
    </div>
  );
}
