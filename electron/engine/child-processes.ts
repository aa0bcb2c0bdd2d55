/**
 * The processes a run starts beside its worker (run_shell commands, the Pyodide child, MCP stdio servers),
 * registered while they live so the worker can end them all at once when its host is gone: a worker that
 * exits leaves its children to init otherwise, and nobody would ever read what they do.
 */
const live = new Set<() => void>();

/** Registers a way to kill one child now (synchronous, e.g. SIGKILL); returns its removal. */
export function trackChild(kill: () => void): () => void {
  live.add(kill);
  return () => {
    live.delete(kill);
  };
}

/** Kills every registered child now. Safe in a process 'exit' handler (synchronous). */
export function killTrackedChildren(): void {
  for (const kill of [...live]) {
    try {
      kill();
    } catch {
      /* already gone */
    }
  }
  live.clear();
}
