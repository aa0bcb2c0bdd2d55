/**
 * The accessibility audit: axe-core's WCAG 2.0/2.1 A and AA rules over whatever the page shows, in the light
 * and the dark theme. Nothing is scoped to known elements, so whatever a view gains later is audited too.
 * Every count lands in test-results/e2e/a11y-audit.json, so a run on older code gives the "before" figures.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { ROOT } from './harness.js';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Finding {
  readonly view: string;
  readonly rule: string;
  readonly impact: string | null;
  readonly nodes: { target: string; summary: string }[];
}

const RESULTS = join(ROOT, 'test-results', 'e2e', 'a11y-audit.json');

/** Per view and theme, how many elements fail a rule; kept across the test file's audits. */
export const counts: Record<string, Audited> = {};

interface Audited {
  readonly violations: number;
  readonly rules: Record<string, number>;
  readonly ms: number;
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

/** Audits the page as it is now; returns its violations (one per rule, with the failing elements). */
export async function auditPage(page: Page, view: string): Promise<Finding[]> {
  const started = Date.now();
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const findings = result.violations.map((v) => ({
    view,
    rule: v.id,
    impact: v.impact ?? null,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240) })),
  }));
  record(view, {
    violations: findings.reduce((s, f) => s + f.nodes.length, 0),
    rules: Object.fromEntries(findings.map((f) => [f.rule, f.nodes.length])),
    ms: Date.now() - started,
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
  await page.click('[data-testid=theme-toggle]');
  await page.waitForFunction((t) => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light') === t, theme);
}

/** Audits the app's current view in both themes, ending in the theme it started in. */
export async function auditBothThemes(page: Page, view: string): Promise<Finding[]> {
  const start = await currentTheme(page);
  const order: Theme[] = start === 'light' ? ['light', 'dark'] : ['dark', 'light'];
  const found: Finding[] = [];
  for (const theme of order) {
    await setTheme(page, theme);
    found.push(...(await auditPage(page, `${view} (${theme})`)));
  }
  await setTheme(page, start);
  return found;
}

/** A readable failure message: rule, impact and the first failing elements of each violation. */
export function describeFindings(found: readonly Finding[]): string {
  return found
    .map((f) => `${f.view}: ${f.rule} (${f.impact}) × ${f.nodes.length}\n${f.nodes.slice(0, 4).map((n) => `    ${n.target} — ${n.summary}`).join('\n')}`)
    .join('\n');
}
