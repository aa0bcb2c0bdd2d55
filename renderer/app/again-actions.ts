/**
 * A stored comparison started again or loaded into the composer (store/composer-again.ts): the same task,
 * provider, model, columns, trials and settings, through the composer's own Run so every check still applies.
 */
import { fmtDateTime } from '../lib/display-format.js';
import { appStore } from '../store/app-store.js';
import { formFromMeta } from '../store/composer-again.js';
import { runComparison } from './actions.js';

const st = () => appStore.getState();

/** The MCP servers the open comparison's tools came from (their config is not stored with it). */
function mcpServersOfActive(): string[] {
  const s = st();
  const ids = new Set(s.active?.meta.runs.map((r) => r.runId));
  const servers = Object.values(s.runs)
    .filter((r) => ids.has(r.runId))
    .flatMap((r) => r.started?.mcpTools?.map((t) => t.server) ?? []);
  return [...new Set(servers)];
}

/**
 * The open comparison's settings into the composer, with `trials` per mode when given (the result's advice),
 * and the composer shown. False when no comparison is open.
 */
export function loadIntoComposer(options: { trials?: number; focus?: boolean } = {}): boolean {
  const s = st();
  const meta = s.active?.meta;
  if (!meta) return false;
  const { form, notes } = formFromMeta(meta, s.form, mcpServersOfActive());
  s.setForm(options.trials ? { ...form, trials: String(options.trials) } : form);
  s.setLoadedFrom({ id: meta.id, when: fmtDateTime(meta.createdAt), notes });
  s.setShowErrors(false);
  if (options.focus !== false) s.requestComposerFocus();
  return true;
}

/** The open comparison again, as it was set: loaded into the composer, then started by its Run. */
export async function runAgain(): Promise<void> {
  if (!loadIntoComposer({ focus: false })) return;
  await runComparison();
}
