/**
 * The accessibility audit: axe-core's WCAG 2.0/2.1 A and AA rules over whatever the page shows, in the light
 * and the dark theme. Nothing is scoped to known elements, so whatever a view gains later is audited too.
 * Every count lands in test-results/e2e/a11y-audit.json, so a run on older code gives the "before" figures.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { ROOT } from './harness.js';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Finding {
  readonly view: string;
  readonly rule: string;
  readonly impact: string | null;
  readonly nodes: { target: string; summary: string; html: string }[];
}

const RESULTS = join(ROOT, 'test-results', 'e2e', 'a11y-audit.json');

/** Per view and theme, how many elements fail a rule; kept across the test file's audits. */
export const counts: Record<string, Audited> = {};

interface Audited {
  readonly violations: number;
  readonly rules: Record<string, number>;
  readonly ms: number;
  /** The first failing elements, to fix them from the file alone. */
  readonly examples: string[];
}

function record(view: string, audited: Audited): void {
  counts[view] = audited;
  mkdirSync(join(ROOT, 'test-results', 'e2e'), { recursive: true });
  let all: Record<string, Audited> = {};
  try {
    all = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, Audited>;
  } catch {
    // first audit of this run
  }
  writeFileSync(RESULTS, JSON.stringify({ ...all, ...counts }, null, 2));
}

/** The rules whose outcome depends on colours: all that can change when only the theme changes. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe-core's browser build, read once per test process. */
let axeSource: string | undefined;

/**
 * Puts axe-core into the page once per document: @axe-core/playwright sends its 0.5 MB source with every audit,
 * about half of an audit's time on these views (`npm run bench -- a11y-audit`). A navigation or reload starts a
 * new document, which gets it again.
 */
async function withAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')) return;
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
}

/** axe.run over the whole document with these options, in the page. */
export async function runAxe(page: Page, options: RunOptions): Promise<AxeResults> {
  await withAxe(page);
  return page.evaluate(
    (o) =>
      (window as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }).axe.run(document, o),
    options,
  );
}

/**
 * Audits the page as it is now; returns its violations (one per rule, with the failing elements). `colours`
 * runs only the colour rules: the second theme of a view changes nothing else, and the audit costs seconds.
 */
export async function auditPage(page: Page, view: string, options: { colours?: boolean } = {}): Promise<Finding[]> {
  const started = Date.now();
  // axe.run in the page (the app has no frames) rather than runPartial + finishRun, which opens a blank page for
  // every audit; only violations are gathered (axe skips building the passes). Same rules.
  const result = await runAxe(page, {
    runOnly: options.colours ? { type: 'rule', values: COLOUR_RULES } : { type: 'tag', values: WCAG_TAGS },
    resultTypes: ['violations'],
  });
  const findings = result.violations.map((v) => ({
    view,
    rule: v.id,
    impact: v.impact ?? null,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '),
      summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240),
      html: n.html.slice(0, 160),
    })),
  }));
  record(view, {
    violations: findings.reduce((s, f) => s + f.nodes.length, 0),
    rules: Object.fromEntries(findings.map((f) => [f.rule, f.nodes.length])),
    ms: Date.now() - started,
    examples: findings.flatMap((f) => f.nodes.slice(0, 3).map((n) => `${f.rule}: ${n.html} — ${n.summary}`)),
  });
  return findings;
}

export type Theme = 'light' | 'dark';

export async function currentTheme(page: Page): Promise<Theme> {
  return (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark' ? 'dark' : 'light';
}

/** Switches the app's theme with its own toggle and waits until the page wears it. */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  if ((await currentTheme(page)) === theme) return;
  // The app's own toggle, clicked without a pointer: an open menu or dialog stays as it is.
  await page.locator('[data-testid=theme-toggle]').dispatchEvent('click');
  await page.waitForFunction(
    (t) => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light') === t,
    theme,
  );
}

/**
 * Audits the app's current view: every rule in the light theme, then the colour rules in the dark one.
 * `reopen` brings the view back after the theme switch (a menu closes when the theme toggle is clicked).
 */
export async function auditBothThemes(page: Page, view: string, reopen?: () => Promise<void>): Promise<Finding[]> {
  if ((await currentTheme(page)) !== 'light') {
    await setTheme(page, 'light');
    await reopen?.();
  }
  const found = await auditPage(page, `${view} (light)`);
  await setTheme(page, 'dark');
  await reopen?.();
  found.push(...(await auditPage(page, `${view} (dark)`, { colours: true })));
  await setTheme(page, 'light');
  return found;
}

/** A readable failure message: rule, impact and the first failing elements of each violation. */
export function describeFindings(found: readonly Finding[]): string {
  return found
    .map(
      (f) =>
        `${f.view}: ${f.rule} (${f.impact}) × ${f.nodes.length}\n${f.nodes
          .slice(0, 4)
          .map((n) => `    ${n.target} — ${n.summary}`)
          .join('\n')}`,
    )
    .join('\n');
}
