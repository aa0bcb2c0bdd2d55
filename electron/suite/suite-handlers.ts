/**
 * The suite channels of the IPC contract (suites:list, suites:open, suites:export). The host runs comparisons and
 * knows nothing of suites, which are built on it (run-suite.ts drives a host): each shell (the desktop main
 * process, `parallax serve`) merges these handlers into the host's, so no import goes from the host up here.
 */
import type { ExportResult, InvokeChannel, InvokeHandlers, StoredComparison } from '../../shared/ipc-contract.js';
import { checkId } from '../host/history-meta.js';
import type { BuiltReport } from '../host/reports/index.js';
import { openSuite, suiteView } from './suite-data.js';
import { SuiteStore } from './suite-store.js';

export type SuiteChannel = Extract<InvokeChannel, `suites:${string}`>;
export type SuiteHandlers = Pick<InvokeHandlers, SuiteChannel>;

export interface SuiteHandlerOptions {
  readonly dataDir: string;
  /** A stored comparison by id, as the host opens it (history:open: the id checked, live runs marked). */
  readonly openComparison: (comparisonId: string) => Promise<StoredComparison>;
  readonly warn?: (message: string) => void;
  /** The shell's own way to hand over a report (the desktop save dialog); absent: the page downloads it. */
  readonly exportReport?: (report: BuiltReport) => Promise<ExportResult>;
}

export function suiteHandlers(options: SuiteHandlerOptions): SuiteHandlers {
  const warn = options.warn ?? ((m: string) => process.stderr.write(`parallax host: ${m}\n`));
  const store = new SuiteStore(options.dataDir);
  return {
    'suites:list': async () => store.list(warn),
    'suites:open': async (suiteId) =>
      suiteView(await openSuite(await store.read(checkId(suiteId, 'suite')), options.openComparison)),
    'suites:export': async (suiteId, format) => {
      const record = await store.read(checkId(suiteId, 'suite'));
      const { builtSuiteReport } = await import('./suite-report.js');
      const built = builtSuiteReport(await openSuite(record, options.openComparison), String(format));
      return options.exportReport ? options.exportReport(built) : { status: 'download', ...built };
    },
  };
}
