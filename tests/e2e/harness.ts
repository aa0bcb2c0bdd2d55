/**
 * End-to-end harness: a real `parallax serve` child process on a temporary data dir (simulated model), and
 * Debian Chromium driven by playwright-core against the page it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newBrowserContext } from '../helpers/browser-context.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface Served {
  readonly url: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `parallax serve --port 0` (plus `args`) and resolves once it printed its URL. */
export async function startServe(env: Record<string, string> = {}, args: readonly string[] = []): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-e2e-'));
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'parallax.js'), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      PARALLAX_DATA_DIR: dataDir,
      OPENAI_API_KEY: '',
      DEEPSEEK_API_KEY: '',
      OPENROUTER_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`parallax serve printed no URL within 45 s:\n${out}`)), 45_000);
    const check = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`parallax serve exited (${code}) before printing its URL:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Driven {
  readonly browser: BrowserContext;
  readonly page: Page;
  readonly errors: string[];
  close(): Promise<void>;
}

/** A fresh browser context at 1280×800 with the page open; page errors are collected, not ignored. */
export async function openPage(
  url: string,
  options: { colorScheme?: 'light' | 'dark'; downloads?: boolean } = {},
): Promise<Driven> {
  const context = await newBrowserContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    acceptDownloads: options.downloads ?? true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  return { browser: context, page, errors, close: () => context.close() };
}

export type { Browser };
