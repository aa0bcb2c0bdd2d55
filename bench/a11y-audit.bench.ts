/**
 * One axe-core audit (WCAG 2 A/AA rules) of a finished comparison's timeline, as @axe-core/playwright runs it by
 * default (axe.runPartial, then axe.finishRun in a blank page it opens, every result type), in its legacy mode
 * (axe.run in the page, violations only, axe's source sent with each audit), and as tests/e2e/a11y-audit.ts runs it
 * (the same axe.run, axe put into the page once). Alternated, so that the machine's load weighs on all alike; the
 * violations found must be the same. Needs `npm run build`.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { runAxe, WCAG_TAGS } from '../tests/e2e/a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from '../tests/e2e/app-session.js';

const ROUNDS = 4;

export default async function main(): Promise<void> {
  let session: AppSession | undefined;
  try {
    session = await startAppSession();
    const { host } = session;
    const page = session.driven.page;
    const meta = await host.invoke('comparison:start', {
      task: 'calc',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    for (
      let i = 0;
      i < 1200 &&
      (await host.invoke('history:list'))
        .find((x) => x.meta.id === meta.id)
        ?.runs.some((r) => r.status === 'running') !== false;
      i++
    )
      await page.waitForTimeout(100);
    await page.click('[data-testid=side-tab-history]');
    await page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await page.waitForSelector(`[data-run-id="${meta.runs[0]!.runId}"]`);
    const ways = {
      'default (runPartial + finishRun in a blank page, all results)': () =>
        new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze(),
      'legacy mode (axe.run in the page, violations only, axe sent each time)': () =>
        new AxeBuilder({ page })
          .setLegacyMode()
          .options({ resultTypes: ['violations'] })
          .withTags(WCAG_TAGS)
          .analyze(),
      'the audit (the same axe.run, axe put into the page once)': () =>
        runAxe(page, { runOnly: { type: 'tag', values: WCAG_TAGS }, resultTypes: ['violations'] }),
    };
    const times = new Map<string, number[]>();
    const found = new Map<string, string>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, build] of Object.entries(ways)) {
        const t0 = performance.now();
        const res = await build();
        times.set(name, [...(times.get(name) ?? []), performance.now() - t0]);
        found.set(name, res.violations.map((v) => `${v.id}×${v.nodes.length}`).join(',') || 'none');
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [name, xs] of times)
      console.log(
        `${name}: median ${(median(xs) / 1000).toFixed(2)} s over ${xs.length} (violations: ${found.get(name)})`,
      );
    const [a, b, c] = [...times.values()];
    console.log(
      `ratios: default / the audit ${(median(a!) / median(c!)).toFixed(2)}, legacy / the audit ${(median(b!) / median(c!)).toFixed(2)}`,
    );
  } finally {
    await stopAppSession(session ?? {});
  }
}
