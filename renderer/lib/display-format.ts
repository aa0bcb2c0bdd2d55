/** Number and time formatting used everywhere a figure is shown (en-US grouping, so tests can parse it). */
import { formatRounded } from '../../shared/number-format.js';

// Whole numbers and means are written by the one formatter of every surface (shared/number-format.ts).
export function fmtInt(n: number): string {
  return formatRounded(n);
}

/** A mean over trials: one decimal when it has one (20,199.5), none when it is whole. */
export function fmtMean(n: number): string {
  return formatRounded(n, 1);
}

/** Durations are written as on every other surface (shared/number-format.ts): "850 ms", "12.3 s", "2 min 05 s". */
export { formatDuration as fmtMs } from '../../shared/number-format.js';

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function fmtRelative(epochMs: number, now = Date.now()): string {
  const s = Math.round((now - epochMs) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  const d = new Date(epochMs);
  return d.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: d.getFullYear() === new Date(now).getFullYear() ? undefined : 'numeric',
  });
}

export function fmtDateTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** Pretty JSON for arguments; strings (unparseable arguments) are returned as they are. */
export function fmtArgs(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined) return '';
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/** One-line argument preview: `path: "logs", limit: 3`. */
export function argsPreview(args: unknown, max = 80): string {
  let text: string;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    text = Object.entries(args as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v))}`)
      .join(', ');
  } else text = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
