/** Menu commands drive the same actions as the buttons: checked through a recording host transport. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ComparisonMeta, InvokeChannel } from '../../../shared/ipc-contract.js';
import { setTransport } from '../../../renderer/api/client.js';
import { fakeTransport } from '../fixtures/fake-transport.js';
import { runCommand } from '../../../renderer/app/actions.js';
import { appStore } from '../../../renderer/store/app-store.js';
import { syntheticRun } from '../fixtures/synthetic-stream.js';

const meta: ComparisonMeta = {
  id: 'c1',
  createdAt: 0,
  task: { id: 'log-stats', text: 'x' },
  provider: { name: 'simulated', baseUrl: '', model: 'sim', simulated: true },
  settings: {} as never,
  runs: [{ runId: 'r1', mode: 'react' }],
  workspaceSource: 'log-stats',
};

const calls: { channel: InvokeChannel; args: unknown[] }[] = [];
const fake = fakeTransport((channel, args) => {
  calls.push({ channel, args });
  if (channel === 'comparison:start') return meta;
  if (channel === 'history:page') return { items: [], total: 0, stored: 0, nextOffset: null, damagedCount: 0 };
  return undefined;
});
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('menu commands', () => {
  beforeEach(() => {
    calls.length = 0;
    setTransport(fake);
    appStore.getState().clearComparison();
  });

  it('toggle-theme switches the theme both ways', () => {
    appStore.getState().setTheme('light');
    runCommand('toggle-theme');
    expect(appStore.getState().theme).toBe('dark');
    runCommand('toggle-theme');
    expect(appStore.getState().theme).toBe('light');
  });

  it('run starts the comparison the composer describes, like the Run button', async () => {
    runCommand('run');
    await settle();
    expect(calls.find((c) => c.channel === 'comparison:start')?.args[0]).toMatchObject({
      task: 'log-stats',
      modes: ['react', 'code'],
      provider: { name: 'simulated', model: 'sim' },
    });
    expect(appStore.getState().active?.meta.id).toBe('c1');
  });

  it('cancel cancels the running comparison, and does nothing once it finished', async () => {
    appStore
      .getState()
      .showComparison(
        { meta, source: 'live', interrupted: [] },
        syntheticRun({ runId: 'r1', mode: 'react', steps: 3, unfinished: true }),
      );
    runCommand('cancel');
    await settle();
    expect(calls).toEqual([{ channel: 'comparison:cancel', args: ['c1'] }]);
    calls.length = 0;
    appStore.getState().applyEvents(syntheticRun({ runId: 'r1', mode: 'react', steps: 3 }));
    runCommand('cancel');
    await settle();
    // A history refresh timed by the previous test may land here; what matters is that nothing is cancelled.
    expect(calls.filter((c) => !c.channel.startsWith('history:'))).toEqual([]);
  });

  it('open-history shows the history panel and reloads it; new-comparison returns to the composer', async () => {
    runCommand('open-history');
    await settle();
    expect(appStore.getState().sidebarTab).toBe('history');
    expect(calls.map((c) => c.channel)).toContain('history:page');
    const before = appStore.getState().focusComposer;
    runCommand('new-comparison');
    expect(appStore.getState().sidebarTab).toBe('compose');
    expect(appStore.getState().focusComposer).toBe(before + 1);
  });

  it('export opens the export menu for an open comparison, and explains when there is none', () => {
    runCommand('export');
    expect(appStore.getState().exportMenuOpen).toBe(false);
    expect(appStore.getState().toasts.at(-1)?.title).toBe('Nothing to export yet');
    appStore.getState().showComparison({ meta, source: 'history', interrupted: [] });
    runCommand('export');
    expect(appStore.getState().exportMenuOpen).toBe(true);
  });
});
