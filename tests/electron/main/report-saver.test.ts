import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SaveDialogOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { createReportSaver } from '../../../electron/main/report-saver.js';

const report = {
  fileName: 'parallax-log-stats.html',
  mimeType: 'text/html; charset=utf-8',
  content: '<h1>Report</h1>',
};

describe('report saver', () => {
  it("is 'cancelled' when the dialog is closed, and writes nothing", async () => {
    const writeFile = vi.fn();
    const save = createReportSaver({
      defaultDir: '/docs',
      writeFile,
      showSaveDialog: async () => ({ canceled: true, filePath: '' }),
    });
    expect(await save(report)).toEqual({ status: 'cancelled' });
    expect(writeFile).not.toHaveBeenCalled();
  });

  it('writes the report where the user chose and offers a matching filter first', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parallax-report-'));
    const seen: SaveDialogOptions[] = [];
    const target = path.join(dir, 'mine.html');
    const save = createReportSaver({
      defaultDir: '/docs',
      showSaveDialog: async (o) => (seen.push(o), { canceled: false, filePath: target }),
    });
    expect(await save(report)).toEqual({ status: 'saved', path: target });
    expect(readFileSync(target, 'utf8')).toBe('<h1>Report</h1>');
    expect(seen[0].defaultPath).toBe(path.join('/docs', 'parallax-log-stats.html'));
    expect(seen[0].filters?.[0]).toEqual({ name: 'HTML report', extensions: ['html'] });
    // The next dialog opens where the last report went.
    await save({ ...report, fileName: 'b.csv' });
    expect(seen[1].defaultPath).toBe(path.join(dir, 'b.csv'));
    expect(seen[1].filters?.[0].extensions).toEqual(['csv']);
  });

  it('adds the extension when the chosen name has none', async () => {
    const writeFile = vi.fn(async () => undefined);
    const save = createReportSaver({
      defaultDir: '/d',
      writeFile,
      showSaveDialog: async () => ({ canceled: false, filePath: '/d/summary' }),
    });
    expect(await save({ ...report, fileName: 'x.md' })).toEqual({ status: 'saved', path: '/d/summary.md' });
    expect(writeFile).toHaveBeenCalledWith('/d/summary.md', report.content);
  });

  it('explains a failed write', async () => {
    const err = Object.assign(new Error('denied'), { code: 'EACCES' });
    const save = createReportSaver({
      defaultDir: '/d',
      writeFile: async () => Promise.reject(err),
      showSaveDialog: async () => ({ canceled: false, filePath: '/root/x.html' }),
    });
    await expect(save(report)).rejects.toThrow(
      /Could not write the report to \/root\/x\.html \(EACCES\)\. Choose a folder/,
    );
  });
});
