/**
 * The window's last size and position, kept as a small JSON file in userData. What is read back is
 * validated and clamped onto a display that exists now (monitors come and go between sessions).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowState {
  /** Absent when the window should be centred by the system. */
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
  readonly maximized: boolean;
  /** The view that was open: the page's hash (renderer/app/url-state.ts), so a restart returns to it. */
  readonly view?: string;
}

/** Only a hash the renderer writes ("#/comparison/…"), of sane length, is kept: the file is input like any other. */
const isView = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= 400 && /^#\/comparison\/[^\s]*$/.test(v);

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const;
export const MIN_WINDOW_SIZE = { width: 880, height: 560 } as const;
/** A restored window must show at least this much of itself on some display to keep its position. */
const MIN_VISIBLE = { width: 120, height: 80 };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Accepts only well-formed state; anything else yields null (and the defaults are used). */
export function parseWindowState(value: unknown): WindowState | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!isInt(v.width) || !isInt(v.height) || v.width <= 0 || v.height <= 0) return null;
  const hasPos = isInt(v.x) && isInt(v.y);
  return {
    ...(hasPos ? { x: Math.round(v.x as number), y: Math.round(v.y as number) } : {}),
    width: Math.round(v.width),
    height: Math.round(v.height),
    maximized: v.maximized === true,
    ...(isView(v.view) ? { view: v.view } : {}),
  };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * Fits the state to the current displays' work areas: the size never exceeds the chosen display, and the
 * window lies fully inside it. A window that no display shows enough of is re-centred (x/y dropped).
 */
export function fitToDisplays(state: WindowState | null, workAreas: readonly Rect[]): WindowState {
  const primary = workAreas[0];
  const base = state ?? { ...DEFAULT_WINDOW_SIZE, maximized: false };
  if (!primary) return base;

  let target: Rect | null = null;
  if (base.x !== undefined && base.y !== undefined) {
    const rect = { x: base.x, y: base.y, width: base.width, height: base.height };
    let best = 0;
    for (const area of workAreas) {
      const o = overlap(rect, area);
      if (o.width >= MIN_VISIBLE.width && o.height >= MIN_VISIBLE.height && o.width * o.height > best) {
        best = o.width * o.height;
        target = area;
      }
    }
  }
  const area = target ?? primary;
  const width = clamp(base.width, Math.min(MIN_WINDOW_SIZE.width, area.width), area.width);
  const height = clamp(base.height, Math.min(MIN_WINDOW_SIZE.height, area.height), area.height);
  const view = base.view !== undefined ? { view: base.view } : {};
  if (!target) return { width, height, maximized: base.maximized, ...view };
  return {
    ...view,
    x: clamp(base.x as number, area.x, area.x + area.width - width),
    y: clamp(base.y as number, area.y, area.y + area.height - height),
    width,
    height,
    maximized: base.maximized,
  };
}

export async function loadWindowState(file: string, workAreas: readonly Rect[]): Promise<WindowState> {
  let parsed: WindowState | null = null;
  try {
    parsed = parseWindowState(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    parsed = null; // missing or damaged: start from the defaults
  }
  return fitToDisplays(parsed, workAreas);
}

export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  const clean = parseWindowState(state);
  if (!clean) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(clean)}\n`);
}
