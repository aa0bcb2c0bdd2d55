/** Reading the app's state out of the DOM, through the data-* attributes the components expose for this. */
import type { Page } from 'playwright-core';
import { vi } from 'vitest';
import type { ComparisonMeta, StoredComparison } from '../../shared/ipc-contract.js';
import type { ComparisonRequest, ModeId } from '../../shared/run-spec.js';
import type { AppSession } from './app-session.js';
import type { HostClient } from './host-client.js';

export interface BarReading {
  readonly step: number;
  readonly mode: string;
  readonly kind: string;
  readonly value: number;
}

export const readBars = (page: Page): Promise<BarReading[]> =>
  page.$$eval('[data-testid=token-bar]', (els) =>
    els.map((e) => ({
      step: Number(e.getAttribute('data-step')),
      mode: e.getAttribute('data-mode')!,
      kind: e.getAttribute('data-kind')!,
      value: Number(e.getAttribute('data-value')),
    })),
  );

export const readPoints = (page: Page): Promise<{ step: number; mode: string; value: number }[]> =>
  page.$$eval('[data-testid=cumulative-point]', (els) =>
    els.map((e) => ({
      step: Number(e.getAttribute('data-step')),
      mode: e.getAttribute('data-mode')!,
      value: Number(e.getAttribute('data-value')),
    })),
  );

export const sortReadings = <T extends { step: number; mode: string; kind?: string }>(list: T[]): T[] =>
  [...list].sort(
    (a, b) => a.mode.localeCompare(b.mode) || a.step - b.step || (a.kind ?? '').localeCompare(b.kind ?? ''),
  );

export function columnStatus(page: Page, mode: ModeId): Promise<string | null> {
  return page.locator(`[data-testid=column-${mode}] [data-testid=run-status]`).getAttribute('data-status');
}

export async function waitForStatus(
  page: Page,
  mode: ModeId,
  statuses: readonly string[],
  timeout = 120_000,
): Promise<string> {
  try {
    const handle = await page.waitForFunction(
      ({ mode, statuses }) => {
        const s = document
          .querySelector(`[data-testid=column-${mode}] [data-testid=run-status]`)
          ?.getAttribute('data-status');
        return s && statuses.includes(s) ? s : null;
      },
      { mode, statuses },
      { timeout, polling: 'raf' },
    );
    return (await handle.jsonValue()) as string;
  } catch (error) {
    // A wait that ran out says what the page showed instead, so a failure in CI can be read from its log alone.
    const shown = await describeColumns(page).catch((e: Error) => `(the page could not be read: ${e.message})`);
    throw new Error(`The ${mode} column never showed ${statuses.join(' or ')}. The page shows:\n${shown}`, {
      cause: error,
    });
  }
}

/** Each column's status and step cards, the connection and any banner, in a few lines of text. */
export function describeColumns(page: Page): Promise<string> {
  return page.evaluate(() => {
    const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);
    const modes = [...document.querySelectorAll('[data-testid^=column-]')]
      .filter((c) => c.getAttribute('data-testid') !== 'column-badges' && c.querySelector('[data-testid=run-status]'))
      .map((c) => c.getAttribute('data-testid')!.slice('column-'.length));
    const lines = [...new Set(modes)].map((m) => {
      const status = document
        .querySelector(`[data-testid=column-${m}] [data-testid=run-status]`)
        ?.getAttribute('data-status');
      const cards = [...document.querySelectorAll(`.cell[data-mode=${m}] [data-testid=step-card]`)];
      const states = cards.map((card) => card.getAttribute('data-state') ?? '?').join(',');
      return `${m}: status ${status}; step cards [${states}]; last card: ${text(cards.at(-1))}`;
    });
    lines.push(`connection: ${text(document.querySelector('[data-testid=connection-status]'))}`);
    const banner = document.querySelector('[data-testid=connection-banner], [data-testid=result-banner]');
    if (banner) lines.push(`banner: ${text(banner)}`);
    return lines.join('\n');
  });
}

/**
 * Records, at every DOM change, each column's status and how many answered step cards it shows, so a test
 * can tell what the user saw while the runs were live without timing anything.
 */
export async function startRecordingColumns(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __columnFrames: unknown[]; __columnObserver?: MutationObserver };
    w.__columnObserver?.disconnect();
    w.__columnFrames = [];
    const snap = () => {
      const frame: Record<string, { status: string | null; steps: number }> = {};
      for (const head of document.querySelectorAll<HTMLElement>('[data-testid^=column-][data-run-id]')) {
        const mode = head.dataset.testid!.slice('column-'.length);
        const runId = head.dataset.runId;
        frame[mode] = {
          status: head.querySelector('[data-testid=run-status]')?.getAttribute('data-status') ?? null,
          steps: document.querySelectorAll(`[data-testid=step-card][data-run-id="${runId}"][data-state=done]`).length,
        };
      }
      w.__columnFrames.push(frame);
    };
    w.__columnObserver = new MutationObserver(snap);
    w.__columnObserver.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

export async function recordedColumns(page: Page): Promise<Record<string, { status: string | null; steps: number }>[]> {
  return page.evaluate(() => {
    const w = window as unknown as {
      __columnFrames: Record<string, { status: string | null; steps: number }>[];
      __columnObserver?: MutationObserver;
    };
    w.__columnObserver?.disconnect();
    return w.__columnFrames;
  });
}

export async function summaryValue(page: Page, metric: string, mode: ModeId): Promise<number | null> {
  const v = await page.locator(`[data-testid=sum-${metric}-${mode}]`).getAttribute('data-value');
  return v === null || v === '' ? null : Number(v);
}

/** The run id of every column head, left to right. */
export const columnRunIds = (page: Page): Promise<string[]> =>
  page.$$eval('[data-testid^=column-][data-run-id]', (els) => els.map((e) => e.getAttribute('data-run-id')!));

/** The trial options of the picker: their data-trial values, and which one is checked. */
export async function trialOptions(page: Page): Promise<{ trials: string[]; checked: string | null }> {
  return page.$$eval('[data-testid=trial-option]', (els) => ({
    trials: els.map((e) => e.getAttribute('data-trial')!),
    checked: els.find((e) => e.getAttribute('aria-checked') === 'true')?.getAttribute('data-trial') ?? null,
  }));
}

export interface TrialFrame {
  readonly checked: string | null;
  readonly states: Record<string, string | null>;
  readonly columns: string[];
}

/** Records, at every DOM change, the picker's checked trial, each trial's state and the columns' run ids. */
export async function startRecordingTrials(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __trialFrames: unknown[]; __trialObserver?: MutationObserver };
    w.__trialObserver?.disconnect();
    w.__trialFrames = [];
    const snap = () => {
      const options = [...document.querySelectorAll<HTMLElement>('[data-testid=trial-option]')];
      if (options.length === 0) return;
      const states: Record<string, string | null> = {};
      for (const o of options) if (o.dataset.trial !== 'all') states[o.dataset.trial!] = o.dataset.state ?? null;
      w.__trialFrames.push({
        checked: options.find((o) => o.getAttribute('aria-checked') === 'true')?.dataset.trial ?? null,
        states,
        columns: [...document.querySelectorAll<HTMLElement>('[data-testid^=column-][data-run-id]')].map(
          (e) => e.dataset.runId!,
        ),
      });
    };
    w.__trialObserver = new MutationObserver(snap);
    w.__trialObserver.observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

export async function recordedTrials(page: Page): Promise<TrialFrame[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __trialFrames: TrialFrame[]; __trialObserver?: MutationObserver };
    w.__trialObserver?.disconnect();
    return w.__trialFrames;
  });
}

/** The composer set for a ReAct-only calc run on a scripted model with MCP servers (the MCP e2e files). */
export async function composeMcpRun(page: Page, mcpConfig: string, modelUrl: string): Promise<void> {
  await page.click('[data-testid=advanced-toggle]');
  await page.fill('[data-testid=mcp-config]', mcpConfig);
  await page.selectOption('[data-testid=provider-select]', 'custom');
  await page.fill('[data-testid=base-url]', modelUrl);
  await page.fill('[data-testid=model-input]', 'm');
  await page.check('[data-testid=task-calc] input');
  await page.uncheck('[data-testid=mode-code] input');
}

/**
 * Waits until the host pushed every run's end (run-finished, the event) and lists the comparison with no run
 * still running (its answer: the list reads the stored logs, written just after the events go out).
 */
export async function comparisonEnded(host: HostClient, meta: ComparisonMeta): Promise<void> {
  await host.runsEnded(meta.runs.map((r) => r.runId));
  // vi.waitFor, not expect.poll: this runs in hooks too. Its limit is Playwright's (a hang, not a slow machine).
  await vi.waitFor(
    async () => {
      const item = (await host.invoke('history:list')).find((x) => x.meta.id === meta.id);
      if (!item || item.runs.some((r) => r.status === 'running'))
        throw new Error(`comparison ${meta.id} is still listed as running`);
    },
    { timeout: 120_000, interval: 50 },
  );
}

/** Starts a comparison through the host and resolves with its stored record once every run ended. */
export async function runToEnd(
  host: HostClient,
  request: ComparisonRequest,
): Promise<{ meta: ComparisonMeta; stored: StoredComparison }> {
  const meta = await host.invoke('comparison:start', request);
  await comparisonEnded(host, meta);
  return { meta, stored: await host.invoke('history:open', meta.id) };
}

/**
 * Starts a comparison through the host, waits until every run ended (the host's events, not a clock), and
 * opens it from the history panel; resolves once its result banner is shown.
 */
export async function runAndOpen(session: AppSession, request: ComparisonRequest): Promise<ComparisonMeta> {
  const { host, driven } = session;
  const meta = await host.invoke('comparison:start', request);
  await comparisonEnded(host, meta);
  const page = driven.page;
  if (!(await page.locator('[data-testid=side-tab-history]').isVisible()))
    await page.click('[data-testid=sidebar-toggle]');
  await page.click('[data-testid=side-tab-history]');
  await page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
  await page.waitForSelector(`[data-testid=result-banner]`);
  await page.waitForFunction((id) => location.hash.startsWith(`#/comparison/${id}`), meta.id);
  return meta;
}

/**
 * Does what starts a comparison in the page (a click on Run, Ctrl+Enter) and resolves with the comparison it
 * started: the one the page's address moves to, new to the host's list. Waits scoped to its run ids never match
 * an older comparison's columns (a reload comes back to the last one, and a finished one shows ended runs).
 */
export async function startFromPage(session: AppSession, start: () => Promise<unknown>): Promise<ComparisonMeta> {
  const { host, driven } = session;
  const before = (await host.invoke('history:list')).map((i) => i.meta.id);
  await start();
  const handle = await driven.page.waitForFunction((old) => {
    const id = /^#\/comparison\/([^?]+)/.exec(location.hash)?.[1];
    return id && !old.includes(id) ? id : null;
  }, before);
  const id = (await handle.jsonValue()) as string;
  return (await host.invoke('history:open', id)).meta;
}

/** Waits until the column of this run shows one of `statuses`, and returns it (scoped to the run, not the mode). */
export async function waitForRunStatus(page: Page, runId: string, statuses: readonly string[]): Promise<string> {
  const handle = await page.waitForFunction(
    ({ runId, statuses }) => {
      const s = document
        .querySelector(`[data-testid^=column-][data-run-id="${runId}"] [data-testid=run-status]`)
        ?.getAttribute('data-status');
      return s && statuses.includes(s) ? s : null;
    },
    { runId, statuses },
    { polling: 'raf' },
  );
  return (await handle.jsonValue()) as string;
}
