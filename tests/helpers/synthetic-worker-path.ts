/** The synthetic worker's entry (run under tsx: forkLauncher adds the loader for a .ts entry). */
import { fileURLToPath } from 'node:url';

export const SYNTHETIC_WORKER = fileURLToPath(new URL('./synthetic-worker.ts', import.meta.url));
