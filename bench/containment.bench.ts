/**
 * What containment costs. run_shell: start-to-exit of `true` and `echo hi` in the bubblewrap sandbox (with
 * its prlimit limits) and in the fallback without it (PARALLAX_SANDBOX=off: limits, the Perl subreaper and
 * the process sweep) against a plain process group. Host-side tools: a calculator call, an HTML page turned
 * into text and a search ranked in the compute thread, against the same work on the worker's own thread as
 * before (mathjs's ESM entry, html-to-text and minisearch in-process). And the one-off load of mathjs: its
 * single-file build (what the thread loads) against its ESM entry (what the worker loaded before), each in a
 * fresh plain-node process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runShellCommand, type ShellRunLimits } from '../electron/engine/sandbox/shell-runner.js';
import { detectShellSandbox, shellSandbox, type ShellSandboxInfo } from '../electron/engine/sandbox/shell-sandbox.js';
import { ComputeThread } from '../electron/engine/tools/compute/compute-thread.js';
import { htmlTitle, htmlToText } from '../electron/engine/tools/html-convert.js';
import { ALL_TOOLS } from '../electron/engine/tools/index.js';
import { docsOf, rankDocs } from '../electron/engine/tool-search/search-tools.js';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const ms = (x: number): string => `${x.toFixed(2)} ms`;

async function time(fn: () => Promise<unknown> | unknown, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const SHELL_LIMITS: ShellRunLimits = {
  timeoutMs: 15_000,
  outputBytes: 64 * 1024,
  maxProcesses: 128,
  fileBytes: 100 * 1024 * 1024,
  writeBudgetBytes: 100 * 1024 * 1024,
  tmpBytes: 64 * 1024 * 1024,
};

async function shell(): Promise<void> {
  const sandbox = shellSandbox();
  console.log(`run_shell sandbox here: ${sandbox.kind} — ${sandbox.reason}`);
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-shell-'));
  const plain: ShellSandboxInfo = { kind: 'none', reason: 'bench', prlimit: null };
  const RUNS = 30;
  try {
    for (const command of ['true', 'echo hi']) {
      const run = (info: ShellSandboxInfo) => () =>
        runShellCommand(command, {
          workspace,
          env: { PATH: '/usr/bin:/bin' },
          limits: SHELL_LIMITS,
          signal: new AbortController().signal,
          sandbox: info,
        });
      await run(plain)();
      if (sandbox.kind === 'bubblewrap') await run(sandbox)();
      const without = await time(run(plain), RUNS);
      const limitsOnly = sandbox.prlimit ? await time(run({ ...plain, prlimit: sandbox.prlimit }), RUNS) : null;
      const within = sandbox.kind === 'bubblewrap' ? await time(run(sandbox), RUNS) : null;
      const fallbackInfo = detectShellSandbox({ switchedOff: true });
      const fallback = await time(run(fallbackInfo), RUNS);
      console.log(
        `run_shell ${JSON.stringify(command)}, ${RUNS} runs: plain process group ${ms(median(without))} (p90 ${ms(p90(without))})`,
      );
      if (limitsOnly)
        console.log(`  + prlimit limits only:        ${ms(median(limitsOnly))} (p90 ${ms(p90(limitsOnly))})`);
      console.log(
        `  no OS sandbox (limits${fallbackInfo.reaper ? ', subreaper' : ''}, sweep): ${ms(median(fallback))} (p90 ${ms(p90(fallback))}) — +${ms(median(fallback) - median(without))} per command`,
      );
      if (within) {
        console.log(
          `  bubblewrap sandbox + limits:  ${ms(median(within))} (p90 ${ms(p90(within))}) — ×${(median(within) / median(without)).toFixed(2)}, +${ms(median(within) - median(without))} per command`,
        );
      }
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Load and build mathjs in a fresh plain-node process; prints ms. */
function mathjsLoad(entry: 'esm' | 'single-file'): number {
  const code =
    entry === 'esm'
      ? "const t=performance.now(); import('mathjs').then((m)=>{m.create(m.all); console.log(performance.now()-t)})"
      : "const t=performance.now(); const m=require('mathjs/lib/browser/math.js'); m.create(m.all); console.log(performance.now()-t)";
  return Number(
    execFileSync(process.execPath, ['-e', code], { encoding: 'utf8', cwd: join(import.meta.dirname, '..') }).trim(),
  );
}

async function hostTools(): Promise<void> {
  const loads = { esm: [] as number[], single: [] as number[] };
  for (let i = 0; i < 5; i++) {
    loads.esm.push(mathjsLoad('esm'));
    loads.single.push(mathjsLoad('single-file'));
  }
  console.log(
    `mathjs load + create(all), fresh process ×5: ESM entry ${ms(median(loads.esm))}, single-file build ${ms(median(loads.single))} — ×${(median(loads.esm) / median(loads.single)).toFixed(1)} faster`,
  );

  const thread = new ComputeThread();
  const t0 = performance.now();
  await thread.warmUp();
  console.log(
    `compute thread start (from TypeScript source under tsx; a built worker starts it from .js): ${ms(performance.now() - t0)}`,
  );
  const mathjs = await import('mathjs');
  const math = mathjs.create(mathjs.all);
  const RUNS = 200;
  const expression = '123 * 456 + 789';
  const inThread = await time(() => thread.run('calc', { expression }, { timeoutMs: 5000 }), RUNS);
  const inProcess = await time(() => math.evaluate(expression), RUNS);
  console.log(
    `calculator ${JSON.stringify(expression)}, ${RUNS} calls: in-process ${ms(median(inProcess))}, compute thread ${ms(median(inThread))} (p90 ${ms(p90(inThread))}) — +${ms(median(inThread) - median(inProcess))} per call`,
  );

  const small = `<html><head><title>Fixture</title></head><body>${'<p>Some text of the page, with <a href="/x">a link</a>.</p>'.repeat(20)}</body></html>`;
  const large = `<html><head><title>Large</title></head><body>${'<div><h2>Heading</h2><p>Paragraph text that goes on for a while, <b>bold</b> and <i>italic</i>.</p></div>'.repeat(5000)}</body></html>`;
  for (const [name, html, runs] of [
    ['1.3 KB page', small, 100],
    [`${(large.length / 1024).toFixed(0)} KB page`, large, 10],
  ] as const) {
    const threaded = await time(() => thread.run('html', { html }, { timeoutMs: 30_000 }), runs);
    const direct = await time(() => ({ title: htmlTitle(html), text: htmlToText(html) }), runs);
    console.log(
      `HTML to text, ${name}, ${runs} runs: in-process ${ms(median(direct))}, compute thread ${ms(median(threaded))} — ×${(median(threaded) / median(direct)).toFixed(2)}`,
    );
  }

  const docs = docsOf(ALL_TOOLS);
  const searchThread = await time(
    () => thread.run('search', { query: 'download web page', docs, limit: 5 }, { timeoutMs: 5000 }),
    RUNS,
  );
  const searchDirect = await time(() => rankDocs('download web page', docs, 5), RUNS);
  console.log(
    `search_tools ranking, ${RUNS} queries: in-process ${ms(median(searchDirect))}, compute thread ${ms(median(searchThread))} — +${ms(median(searchThread) - median(searchDirect))} per query`,
  );
  thread.dispose();
}

export default async function bench(): Promise<void> {
  await shell();
  await hostTools();
}
