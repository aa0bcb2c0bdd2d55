/**
 * What buttons, shortcuts and menu commands do. Each action talks to the host through the api client and
 * records the outcome in the store; errors become toasts or inline messages, never silent failures.
 */
import { SEARCH_BACKENDS, searchKeyName, type SearchBackendId } from '../../shared/search-backends.js';
import type {
  ApprovalAnswer,
  ElicitationReply,
  MenuCommand,
  ReportFormat,
  ExportResult,
} from '../../shared/ipc-contract.js';
import { findPreset } from '../../shared/providers.js';
import { findTask } from '../../shared/tasks.js';
import { fmtDateTime } from '../lib/display-format.js';
import { invoke } from '../api/client.js';
import { appStore } from '../store/app-store.js';
import { buildRequest, effectiveBaseUrl } from '../store/composer-model.js';
import { comparisonSelectors, uiSelectors } from '../store/selectors.js';
import { refreshHistory } from './history-actions.js';

const st = () => appStore.getState();

/** A built-in task's title, or the first line of a free-text task. */
export function taskTitle(task: { id: string | null; text: string }): string {
  return (task.id && findTask(task.id)?.title) || task.text.split('\n')[0]!.slice(0, 120);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { refreshHistory };

let historyTimer: ReturnType<typeof setTimeout> | null = null;
/** Coalesce refreshes when several runs finish in the same moment. */
export function refreshHistorySoon(delayMs = 300): void {
  if (historyTimer) clearTimeout(historyTimer);
  historyTimer = setTimeout(() => {
    historyTimer = null;
    void refreshHistory();
  }, delayMs);
}

/**
 * What the main view was last asked to show: each Run and each open takes a number, and an open whose answer
 * comes after a later ask is dropped. Without it, a stored comparison the page began opening (its URL, a click in
 * History) replaced a comparison the user started while it loaded, and the live run went out of view.
 */
let viewAsk = 0;

/** How many times the main view has been asked for something: the URL's restore yields to any ask after its count. */
export function viewAsks(): number {
  return viewAsk;
}

export async function runComparison(): Promise<void> {
  const s = st();
  if (s.starting || comparisonSelectors.isRunning(s)) return;
  const { request } = buildRequest(s.form);
  if (!request) {
    s.setShowErrors(true);
    s.setSidebarTab('compose');
    return;
  }
  s.setShowErrors(false);
  s.setStarting(true);
  viewAsk += 1;
  try {
    const meta = await invoke('comparison:start', request);
    st().setActiveSuite(null);
    st().showComparison({ meta, source: 'live', interrupted: [] });
    st().setStarting(false);
    st().setLoadedFrom(null);
    st().setMainTab('timeline');
    refreshHistorySoon(100);
  } catch (err) {
    st().setStarting(false, errorText(err));
  }
}

export async function cancelComparison(): Promise<void> {
  const s = st();
  if (!s.active || !comparisonSelectors.isRunning(s)) return;
  try {
    await invoke('comparison:cancel', s.active.meta.id);
  } catch (err) {
    s.pushToast({ kind: 'error', title: 'Could not cancel the comparison', detail: errorText(err) });
  }
}

/** The user's answer to a run waiting for approval; false when the host refused it (shown as a toast). */
export async function answerApproval(runId: string, approvalId: string, decision: ApprovalAnswer): Promise<boolean> {
  try {
    await invoke('approval:answer', runId, approvalId, decision);
    return true;
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not pass on the answer', detail: errorText(err) });
    return false;
  }
}

/** The person's answer to an MCP server's form; false when the host refused it (shown as a toast). */
export async function answerElicitation(
  runId: string,
  elicitationId: string,
  reply: ElicitationReply,
): Promise<boolean> {
  try {
    await invoke('elicitation:answer', runId, elicitationId, reply);
    return true;
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not pass on the answer', detail: errorText(err) });
    return false;
  }
}

export async function cancelRun(runId: string): Promise<void> {
  try {
    await invoke('run:cancel', runId);
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not cancel the run', detail: errorText(err) });
  }
}

/** Rebuild a comparison's timelines and charts from its stored events. `source` is kept on a resync. */
/** A suite run's leaderboard (read-only) in the main area. */
export async function openSuiteRun(id: string): Promise<void> {
  st().setOpening(id);
  try {
    st().setActiveSuite(await invoke('suites:open', id));
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not open the suite run', detail: errorText(err) });
  } finally {
    st().setOpening(null);
  }
}

export async function openComparison(id: string, source: 'history' | 'live' = 'history'): Promise<void> {
  const ask = ++viewAsk;
  st().setOpening(id);
  try {
    const stored = await invoke('history:open', id);
    if (ask !== viewAsk) return; // the user asked for something else meanwhile
    st().setActiveSuite(null);
    st().showComparison({ meta: stored.meta, source, interrupted: stored.interruptedRunIds }, stored.events);
    for (const w of stored.warnings) st().pushToast({ kind: 'info', title: 'Loaded with a warning', detail: w });
  } catch (err) {
    if (ask === viewAsk)
      st().pushToast({ kind: 'error', title: 'Could not open the comparison', detail: errorText(err) });
  } finally {
    if (st().openingId === id) st().setOpening(null);
  }
}

/** Deletions waiting out their Undo window, committed at once when the page goes away. */
const pendingCommits = new Map<string, () => Promise<void>>();
if (typeof window !== 'undefined')
  window.addEventListener('pagehide', () => void Promise.all([...pendingCommits.values()].map((commit) => commit())));

/**
 * Delete a listed comparison with a moment to undo: it leaves the list at once, and its files go when the toast
 * goes (after a few seconds, or when dismissed). A damaged record, which cannot be opened, is confirmed instead.
 */
export function deleteComparison(id: string): void {
  const item = st().historyItems.find((i) => i.meta.id === id);
  if (item) return deleteWithUndo(id, taskTitle(item.meta.task));
  confirmDelete(id);
}

function deleteWithUndo(id: string, title: string): void {
  st().setPendingDelete(id, true);
  const commit = async () => {
    if (!pendingCommits.delete(id)) return;
    try {
      await invoke('history:delete', id);
      if (st().active?.meta.id === id) st().clearComparison();
    } catch (err) {
      st().pushToast({ kind: 'error', title: 'Could not delete the comparison', detail: errorText(err) });
    }
    st().setPendingDelete(id, false);
    await refreshHistory();
  };
  pendingCommits.set(id, commit);
  st().pushToast({
    kind: 'info',
    title: 'Comparison deleted',
    detail: title,
    action: {
      label: 'Undo',
      run: () => {
        pendingCommits.delete(id);
        st().setPendingDelete(id, false);
      },
    },
    onClose: () => void commit(),
  });
}

function confirmDelete(id: string): void {
  const item = st().historyItems.find((i) => i.meta.id === id);
  const title = item ? taskTitle(item.meta.task) : `damaged comparison ${id}`;
  const runs = item ? item.runs.length : 0;
  st().askConfirm({
    title: 'Delete this comparison?',
    body: item
      ? `“${title}” (${fmtDateTime(item.meta.createdAt)}, ${runs} run${runs === 1 ? '' : 's'}) and every stored event will be removed from disk. This cannot be undone.`
      : `The ${title} and everything in its folder will be removed from disk. This cannot be undone.`,
    confirmLabel: 'Delete',
    danger: true,
    onConfirm: async () => {
      try {
        await invoke('history:delete', id);
        if (st().active?.meta.id === id) st().clearComparison();
        st().pushToast({ kind: 'success', title: 'Comparison deleted' });
      } catch (err) {
        st().pushToast({ kind: 'error', title: 'Could not delete the comparison', detail: errorText(err) });
      }
      await refreshHistory();
    },
  });
}

/** A 'download' result becomes a browser download; 'saved' shows where the file went. */
export async function exportReport(format: ReportFormat, comparisonId = st().active?.meta.id): Promise<void> {
  st().setExportMenuOpen(false);
  if (!comparisonId) return;
  await deliverReport(format, () => invoke('report:export', comparisonId, format));
}

/** A suite run's report (Markdown, JSON or HTML), delivered like a comparison's. */
export async function exportSuiteReport(format: ReportFormat, suiteId: string): Promise<void> {
  await deliverReport(format, () => invoke('suites:export', suiteId, format));
}

async function deliverReport(format: ReportFormat, build: () => Promise<ExportResult>): Promise<void> {
  try {
    const result = await build();
    if (result.status === 'download') {
      const url = URL.createObjectURL(new Blob([result.content], { type: result.mimeType }));
      const a = document.createElement('a');
      a.href = url;
      a.download = result.fileName;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      st().pushToast({ kind: 'success', title: `Report downloaded`, detail: result.fileName });
    } else if (result.status === 'saved') {
      st().pushToast({ kind: 'success', title: 'Report saved', detail: result.path });
    }
  } catch (err) {
    st().pushToast({
      kind: 'error',
      title: `Could not export the ${format.toUpperCase()} report`,
      detail: errorText(err),
    });
  }
}

function providerCheck() {
  const f = st().form;
  const custom = f.providerName === 'custom';
  return {
    name: f.providerName,
    baseUrl: effectiveBaseUrl(f),
    model: f.model.trim(),
    apiKeyEnv: custom && f.apiKeyEnv ? f.apiKeyEnv : null,
    protocol: custom && f.protocol === 'anthropic' ? ('anthropic' as const) : null,
  };
}

/** Custom provider: read its key from the environment variable the user typed (the host checks and binds it). */
export async function useKeyEnv(name: string): Promise<boolean> {
  const baseUrl = effectiveBaseUrl(st().form);
  try {
    if (!baseUrl) throw new Error('Enter the server’s base URL first: the key variable is named for one URL.');
    const status = await invoke('keys:use-env', name, baseUrl);
    st().setForm({ apiKeyEnv: status.name });
    st().pushToast(
      status.set
        ? { kind: 'success', title: `Key read from ${status.name}`, detail: `Sent only to ${status.baseUrl}.` }
        : {
            kind: 'info',
            title: `${status.name} is not set`,
            detail:
              'The host’s environment has no value for it; set it and restart the host, or paste the key instead.',
          },
    );
    void loadModels();
    return true;
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not use that variable', detail: errorText(err) });
    return false;
  }
}

/** Desktop: pick the workspace folder in the app's folder dialog. */
export async function chooseWorkspaceFolder(): Promise<void> {
  try {
    const chosen = await invoke('workspace:choose');
    if (chosen) st().setForm({ workspaceDir: chosen.path, workspaceHandle: chosen.handle });
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not choose a folder', detail: errorText(err) });
  }
}

const checkKey = () => {
  const c = providerCheck();
  return `${c.name}|${c.baseUrl ?? ''}${c.apiKeyEnv ? `|$${c.apiKeyEnv}` : ''}${c.protocol ? `|${c.protocol}` : ''}`;
};

export async function loadModels(): Promise<void> {
  const preset = findPreset(st().form.providerName);
  const key = checkKey();
  if (!preset?.listsModels) return;
  if (st().modelList.key === key && st().modelList.status === 'loading') return;
  st().setModelList({ status: 'loading', models: [], detail: '', key });
  try {
    const r = await invoke('provider:models', providerCheck());
    if (checkKey() !== key) return;
    st().setModelList(
      r.ok
        ? { status: 'ready', models: r.models, detail: r.detail, key }
        : { status: 'error', models: [], detail: r.detail, key },
    );
  } catch (err) {
    if (checkKey() === key) st().setModelList({ status: 'error', models: [], detail: errorText(err), key });
  }
}

export async function testConnection(): Promise<void> {
  const key = checkKey() + '|' + st().form.model;
  st().setConnectionTest({ status: 'testing', result: null, key });
  try {
    const result = await invoke('provider:test', providerCheck());
    st().setConnectionTest({ status: 'done', result, key });
    if (result.ok && st().modelList.key !== checkKey()) void loadModels();
  } catch (err) {
    st().setConnectionTest({ status: 'done', result: { ok: false, reason: 'error', detail: errorText(err) }, key });
  }
}

export async function refreshKeyStatus(): Promise<void> {
  try {
    st().setKeyStatus(await invoke('keys:status'));
  } catch {
    /* the composer shows the key as not stored; the banner explains a lost connection */
  }
}

export async function saveKey(key: string): Promise<boolean> {
  const provider = st().form.providerName;
  try {
    // The custom provider's key is bound to the URL it is stored for; a preset's to its own URL.
    await invoke('keys:set', provider, key, provider === 'custom' ? effectiveBaseUrl(st().form) : null);
    await refreshKeyStatus();
    st().pushToast({ kind: 'success', title: `Key stored for ${findPreset(provider)?.label ?? provider}` });
    void loadModels();
    return true;
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not store the key', detail: errorText(err) });
    return false;
  }
}

/** A web search backend's key (Brave, Tavily): stored like a provider's, bound to the backend's own URL. */
export async function saveSearchKey(backend: SearchBackendId, key: string): Promise<boolean> {
  try {
    await invoke('keys:set', searchKeyName(backend), key, null);
    await refreshKeyStatus();
    st().pushToast({ kind: 'success', title: `Key stored for ${SEARCH_BACKENDS[backend].label}` });
    return true;
  } catch (err) {
    st().pushToast({ kind: 'error', title: 'Could not store the key', detail: errorText(err) });
    return false;
  }
}

export function toggleTheme(): void {
  st().setTheme(st().theme === 'dark' ? 'light' : 'dark');
}

export function toggleSidebar(): void {
  st().setSidebarHidden(!uiSelectors.sidebarHidden(st()));
}

export function newComparison(): void {
  if (!comparisonSelectors.isRunning(st())) st().clearComparison();
  st().requestComposerFocus();
}

export function openHistory(): void {
  st().setSidebarTab('history');
  void refreshHistory();
}

export function runCommand(command: MenuCommand): void {
  switch (command) {
    case 'new-comparison':
      return newComparison();
    case 'run':
      return void runComparison();
    case 'cancel':
      return void cancelComparison();
    case 'open-history':
      return openHistory();
    case 'export':
      if (st().active) st().setExportMenuOpen(true);
      else
        st().pushToast({
          kind: 'info',
          title: 'Nothing to export yet',
          detail: 'Run a comparison or open one from History first.',
        });
      return;
    case 'toggle-theme':
      return toggleTheme();
  }
}
