/**
 * The main view shows what the user asked for last: a stored comparison whose opening answers late (its URL at a
 * reload, a History click) no longer replaces a comparison started meanwhile; with nothing asked since, it shows.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import { setTransport } from '../../../renderer/api/client.js';
import { openComparison, runComparison, viewAsks } from '../../../renderer/app/actions.js';
import { restoreFromUrl } from '../../../renderer/app/url-state.js';
import { appStore } from '../../../renderer/store/app-store.js';
import { fakeTransport } from '../fixtures/fake-transport.js';

const SIM = { name: 'simulated', baseUrl: 'http://127.0.0.1:0/v1', model: 'sim', simulated: true };

function meta(id: string): ComparisonMeta {
  return {
    id,
    createdAt: 0,
    task: { id: 'log-stats', text: 'Count lines' },
    provider: SIM,
    settings: DEFAULT_SETTINGS,
    runs: [{ runId: `${id}-react`, mode: 'react', trial: 1 }],
    workspaceSource: 'fixture:log-stats seed 1',
  };
}

/** history:open answers when the test says; comparison:start at once, with a new comparison. */
let answerOpen: (() => void) | null = null;
const fake = fakeTransport(async (channel, args) => {
  if (channel === 'history:open') {
    await new Promise<void>((ok) => (answerOpen = ok));
    return { meta: meta(args[0] as string), events: [], interruptedRunIds: [], warnings: [] };
  }
  if (channel === 'comparison:start') return meta('started');
  if (channel === 'history:list') return [];
  return undefined;
});

describe('what the main view shows', () => {
  beforeEach(() => {
    setTransport(fake);
    appStore.getState().clearComparison();
  });

  it('an opening that answers after Run was pressed does not replace the started comparison', async () => {
    const opening = openComparison('stored-earlier');
    expect(appStore.getState().openingId).toBe('stored-earlier');
    await runComparison();
    expect(appStore.getState().active?.meta.id).toBe('started');
    answerOpen!();
    await opening;
    expect(appStore.getState().active?.meta.id).toBe('started');
    expect(appStore.getState().openingId).toBeNull();
  });

  it('of two openings, the later one shows, whichever answers last', async () => {
    const first = openComparison('first');
    const answerFirst = answerOpen!;
    const second = openComparison('second');
    answerOpen!();
    await second;
    answerFirst();
    await first;
    expect(appStore.getState().active?.meta.id).toBe('second');
  });

  it('with nothing asked meanwhile, the opened comparison shows', async () => {
    const opening = openComparison('stored');
    answerOpen!();
    await opening;
    expect(appStore.getState().active?.meta.id).toBe('stored');
    expect(appStore.getState().openingId).toBeNull();
  });
});

describe("the URL's comparison at a page load", () => {
  beforeEach(() => {
    setTransport(fake);
    appStore.getState().clearComparison();
    answerOpen = null;
  });

  it('is not opened over a comparison the user started while the page connected', async () => {
    const asksBefore = viewAsks();
    await runComparison();
    await restoreFromUrl('#/comparison/stored-earlier', asksBefore);
    expect(appStore.getState().openingId).toBeNull(); // no open was even begun
    expect(appStore.getState().active?.meta.id).toBe('started');
  });

  it('is opened when the user asked for nothing meanwhile', async () => {
    const restoring = restoreFromUrl('#/comparison/stored-earlier', viewAsks());
    await expect.poll(() => answerOpen).not.toBeNull();
    answerOpen!();
    await restoring;
    expect(appStore.getState().active?.meta.id).toBe('stored-earlier');
  });
});
