/**
 * The file name of Pyodide's boot snapshot (py-runtime.ts makes and restores it): one per Pyodide version, so an
 * upgrade never restores another version's memory. Apart from py-runtime.ts so the host can name it without
 * loading Pyodide.
 */
export function bootSnapshotName(pyodideVersion: string): string {
  return `pyodide-${pyodideVersion}.boot-snapshot`;
}
