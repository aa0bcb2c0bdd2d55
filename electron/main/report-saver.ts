/**
 * Where 'report:export' ends in the desktop app: the host builds the report, this asks where to save it
 * (a native save dialog) and writes it. Closing the dialog is a normal outcome ('cancelled'), not an error.
 */
import type { SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { writeFile as fsWriteFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExportResult } from '../../shared/ipc-contract.js';
import { REPORT_FORMAT_INFO, reportFormatOfFile } from '../../shared/report-formats.js';
import type { BuiltReport } from '../host/reports/index.js';

export interface ReportSaverOptions {
  /** dialog.showSaveDialog bound to the main window (or to none). */
  readonly showSaveDialog: (options: SaveDialogOptions) => Promise<SaveDialogReturnValue>;
  /** The folder the dialog opens in first (e.g. the user's Documents). */
  readonly defaultDir: string;
  readonly writeFile?: (file: string, content: string) => Promise<void>;
}

/** The save dialog's filter for a report's file: the format's label and extensions (shared/report-formats.ts). */
function filterOf(fileName: string): { name: string; extensions: string[] } | null {
  const format = reportFormatOfFile(fileName);
  if (!format) return null;
  const info = REPORT_FORMAT_INFO[format];
  // Dialogs filter on the last extension only ("otlp.json" → json).
  return { name: info.label, extensions: [info.extension.split('.').pop()!] };
}

export function createReportSaver(options: ReportSaverOptions): (report: BuiltReport) => Promise<ExportResult> {
  const writeFile = options.writeFile ?? ((file: string, content: string) => fsWriteFile(file, content, 'utf8'));
  let lastDir = options.defaultDir;
  return async (report) => {
    const ext = path.extname(report.fileName).toLowerCase();
    const filter = filterOf(report.fileName);
    const result = await options.showSaveDialog({
      title: 'Export comparison report',
      defaultPath: path.join(lastDir, path.basename(report.fileName)),
      filters: filter ? [filter, { name: 'All files', extensions: ['*'] }] : [{ name: 'All files', extensions: ['*'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    if (result.canceled || !result.filePath) return { status: 'cancelled' };
    // Some platforms return the typed name without the chosen filter's extension.
    const file = filter && path.extname(result.filePath) === '' ? `${result.filePath}${ext}` : result.filePath;
    try {
      await writeFile(file, report.content);
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
      throw new Error(
        `Could not write the report to ${file} (${reason}). Choose a folder you can write to and export again.`,
      );
    }
    lastDir = path.dirname(file);
    return { status: 'saved', path: file };
  };
}
