/** Window-level UI state: theme, panels, toasts, the confirm dialog and the host connection. */
import type { StateCreator } from 'zustand';
import type { AppInfo } from '../../shared/ipc-contract.js';
import type { ConnectionState } from '../api/ws-transport.js';
import type { AppState } from './app-store.js';
import { NO_FILTER, type StepFilter } from '../../shared/step-filter.js';

export type Theme = 'light' | 'dark';
export type SidebarTab = 'compose' | 'history';
export type MainTab = 'timeline' | 'answers' | 'charts' | 'waterfall';

export interface Toast {
  readonly id: number;
  readonly kind: 'info' | 'success' | 'error';
  readonly title: string;
  readonly detail?: string;
  /** A button in the toast (e.g. Undo); clicking it closes the toast without `onClose`. */
  readonly action?: { readonly label: string; run(): void };
  /** Called when the toast goes away by itself or is dismissed (not through its action). */
  readonly onClose?: () => void;
}

export interface ConfirmRequest {
  readonly title: string;
  readonly body: string;
  readonly confirmLabel: string;
  readonly danger?: boolean;
  readonly onConfirm: () => void;
}

export interface UiSlice {
  readonly theme: Theme;
  readonly sidebarTab: SidebarTab;
  /** The side panel folded away, for room to read a comparison's columns; shown again for compose or history. */
  readonly sidebarHidden: boolean;
  /** The window is too narrow for the side panel beside a comparison: folded until the user opens it (not saved). */
  readonly narrowFold: boolean;
  readonly mainTab: MainTab;
  readonly toasts: readonly Toast[];
  readonly confirm: ConfirmRequest | null;
  readonly connection: ConnectionState;
  readonly appInfo: AppInfo | null;
  readonly exportMenuOpen: boolean;
  /** The comparison the "Send to OTLP endpoint" dialog is open for, or null. */
  readonly otlpDialog: string | null;
  /** What the user last typed there: kept in memory for the session, never saved (headers may be secrets). */
  readonly otlpTarget: { readonly endpoint: string; readonly headers: string };
  setOtlpDialog(comparisonId: string | null): void;
  /** The comparison the "Compare with a baseline" dialog is open for, or null. */
  readonly diffDialog: string | null;
  setDiffDialog(comparisonId: string | null): void;
  setOtlpTarget(target: { readonly endpoint: string; readonly headers: string }): void;
  /** Bumped to ask the composer to focus its first field (menu "New comparison"). */
  readonly focusComposer: number;
  /** Per-step token charts on a log scale (prompts of thousands beside completions of tens). */
  readonly chartLogScale: boolean;
  setChartLogScale(on: boolean): void;
  /** Programs in the timeline wrap their long lines instead of scrolling sideways (the default). */
  readonly wrapCode: boolean;
  setWrapCode(on: boolean): void;
  /** Answers as rendered Markdown or as the raw text the model sent; one choice for every column, so they compare. */
  readonly answerRaw: boolean;
  setAnswerRaw(on: boolean): void;
  /** The column (key) every Δ is taken against (null, or a column the comparison lacks: its first column). */
  readonly baselineColumn: string | null;
  setBaselineColumn(key: string | null): void;
  /** The Timeline's step filters (shared/step-filter.ts); kept in the URL. */
  readonly stepFilter: StepFilter;
  setStepFilter(filter: StepFilter): void;
  /** Columns (keys) a matrix cell opened: the timeline scrolls to the first and marks them; bumped per click. */
  readonly focusedColumns: { readonly keys: readonly string[]; readonly at: number } | null;
  /** Show these columns in the timeline (a matrix cell's runs). */
  openColumns(keys: readonly string[]): void;
  /** The two runs the Answers tab compares (null: the first two that answered). */
  readonly diffPair: readonly [string, string] | null;
  setDiffPair(pair: readonly [string, string] | null): void;
  setTheme(theme: Theme): void;
  setSidebarTab(tab: SidebarTab): void;
  setNarrowFold(fold: boolean): void;
  setSidebarHidden(hidden: boolean): void;
  setMainTab(tab: MainTab): void;
  pushToast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  askConfirm(request: ConfirmRequest | null): void;
  setConnection(state: ConnectionState): void;
  setAppInfo(info: AppInfo): void;
  setExportMenuOpen(open: boolean): void;
  requestComposerFocus(): void;
}

let toastId = 0;

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  theme: 'light',
  sidebarTab: 'compose',
  sidebarHidden: false,
  narrowFold: false,
  mainTab: 'timeline',
  chartLogScale: false,
  // Wrapping changes only the lines too long for their column: on by default, so narrow columns clip no code.
  wrapCode: true,
  setWrapCode: (on) => set({ wrapCode: on }),
  answerRaw: false,
  setAnswerRaw: (answerRaw) => set({ answerRaw }),
  focusedColumns: null,
  openColumns: (keys) =>
    set((s) => ({ mainTab: 'timeline', focusedColumns: { keys, at: (s.focusedColumns?.at ?? 0) + 1 } })),
  diffPair: null,
  setDiffPair: (diffPair) => set({ diffPair }),
  baselineColumn: null,
  setBaselineColumn: (baselineColumn) => set({ baselineColumn }),
  stepFilter: NO_FILTER,
  setStepFilter: (stepFilter) => set({ stepFilter }),
  setChartLogScale: (on) => set({ chartLogScale: on }),
  toasts: [],
  confirm: null,
  connection: { status: 'connecting', attempt: 1 },
  appInfo: null,
  exportMenuOpen: false,
  otlpDialog: null,
  otlpTarget: { endpoint: '', headers: '' },
  setOtlpDialog: (otlpDialog) => set({ otlpDialog }),
  diffDialog: null,
  setDiffDialog: (diffDialog) => set({ diffDialog }),
  setOtlpTarget: (otlpTarget) => set({ otlpTarget }),
  focusComposer: 0,
  setTheme: (theme) => set({ theme }),
  setSidebarTab: (sidebarTab) => set({ sidebarTab, sidebarHidden: false, narrowFold: false }),
  // A choice of the user's wins over the fold a narrow window made.
  setSidebarHidden: (sidebarHidden) => set({ sidebarHidden, narrowFold: false }),
  setNarrowFold: (narrowFold) => set({ narrowFold }),
  setMainTab: (mainTab) => set({ mainTab }),
  pushToast: (toast) => {
    const id = ++toastId;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { ...toast, id }] }));
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  askConfirm: (confirm) => set({ confirm }),
  setConnection: (connection) => set({ connection }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setExportMenuOpen: (exportMenuOpen) => set({ exportMenuOpen }),
  requestComposerFocus: () =>
    set((s) => ({
      focusComposer: s.focusComposer + 1,
      sidebarTab: 'compose',
      sidebarHidden: false,
      narrowFold: false,
    })),
});
