/**
 * `npm run bench -- start-profile`: what is left before `parallax run`'s first model request, from a CPU profile
 * (`node --cpu-prof`) of the built CLI (`npm run build` first) against a loopback OpenAI-compatible server. The
 * server notes the monotonic clock when the first request arrives; samples after it are dropped. Each sample's
 * function is traced back through the bundle's source map to its source file, and self time is summed by where
 * the code comes from: a package, a folder of the app, Node's own loader and internals, the garbage collector.
 * PARALLAX_BENCH_PROFILES=N (default 5) profiles; the table is the median of each row over them.
 * PARALLAX_BENCH_TOP=N (default 15): how many of the heaviest functions are listed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';

const root = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One run under the profiler: the profile and the monotonic time (µs) at which the server saw the first request. */
async function profiledRun(): Promise<{ profile: Profile; firstUs: number }> {
  let firstUs = 0;
  const chunk = (delta: object, finish: string | null) => ({
    id: 'p',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const server = createServer((req, res) => {
    firstUs ||= Number(process.hrtime.bigint() / 1000n);
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const c of [
      chunk({ role: 'assistant', content: 'Hello.' }, null),
      chunk({}, 'stop'),
      { ...chunk({}, null), choices: [], usage: { prompt_tokens: 120, completion_tokens: 3, total_tokens: 123 } },
    ])
      res.write(`data: ${JSON.stringify(c)}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const dir = await mkdtemp(join(tmpdir(), 'parallax-start-profile-'));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    await new Promise<void>((ok, fail) => {
      const child = spawn(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          join(root, 'bin', 'parallax.js'),
          'run',
          '--task',
          'Say hello.',
          '--base-url',
          url,
          '--model',
          'm',
          '--max-steps',
          '1',
          '--json',
        ],
        {
          env: { ...process.env, PARALLAX_DATA_DIR: dir },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`parallax run exited ${code}`))));
    });
    const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
    if (!file || !firstUs) throw new Error('no profile, or no request reached the server');
    return { profile: JSON.parse(await readFile(join(dir, file), 'utf8')) as Profile, firstUs };
  } finally {
    await new Promise((ok) => server.close(ok));
    await rm(dir, { recursive: true, force: true });
  }
}

/** Source maps of the bundle's files, decoded once: generated line → segments. */
const maps = new Map<string, { sources: string[]; lines: SourceMapSegment[][] } | null>();
function sourceOf(url: string, line: number, column: number): string | null {
  if (!url.startsWith('file://')) return null;
  const file = fileURLToPath(url);
  if (!maps.has(file)) {
    try {
      const raw = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
      maps.set(file, { sources: raw.sources.map((s) => resolve(dirname(file), s)), lines: decode(raw.mappings) });
    } catch {
      maps.set(file, null);
    }
  }
  const map = maps.get(file);
  if (!map) return file;
  const segments = map.lines[line] ?? [];
  let best: SourceMapSegment | undefined;
  for (const s of segments) if (s[0] <= column) best = s;
  // A chunk's own top-level function (its modules' initialisation, in order) maps to no one source.
  return best && best.length >= 4 ? map.sources[best[1]!]! : TOP_LEVEL;
}
const TOP_LEVEL = 'top-level code of bundled modules (their initialisation)';

/** Where a source file's code comes from, in a few words. */
function origin(source: string): string {
  if (source === TOP_LEVEL) return source;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return `package ${pkg[1]}`;
  const app = source.startsWith(root) ? source.slice(root.length).replace(/^\//, '') : source;
  const parts = app.split('/');
  // electron/engine/tools/x.ts → electron/engine/tools; shared/x.ts → shared
  return `app ${parts
    .slice(0, parts[0] === 'electron' ? 3 : 1)
    .join('/')
    .replace(/\.(ts|js)$/, '')}`;
}

function classify(node: ProfileNode): { group: string; fn: string } {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  if (functionName === '(garbage collector)') return { group: 'garbage collector', fn: functionName };
  if (functionName === '(program)') return { group: 'V8/Node native (program)', fn: functionName };
  if (functionName === '(idle)')
    return { group: 'idle (waiting on child processes, files, the network)', fn: functionName };
  if (url.startsWith('node:internal/modules') || /compileSourceTextModule|compileFunction|wrapSafe/.test(functionName))
    return { group: 'Node: module loading and compiling', fn: `${functionName} ${url}` };
  if (url.startsWith('node:') || url === '')
    return { group: 'Node internals and natives', fn: `${functionName || '(anonymous)'} ${url}` };
  const source = sourceOf(url, lineNumber, columnNumber) ?? url;
  return {
    group: origin(source),
    fn: `${functionName || '(anonymous)'} ${source.startsWith(root) ? source.slice(root.length) : source}`,
  };
}

/** Self time (ms) before the first request, by group and by function. */
function summarize(
  profile: Profile,
  cutUs: number,
): { groups: Map<string, number>; fns: Map<string, number>; total: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t > cutUs) break;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { group, fn } = classify(byId.get(profile.samples[i]!)!);
    groups.set(group, (groups.get(group) ?? 0) + ms);
    fns.set(fn, (fns.get(fn) ?? 0) + ms);
    total += ms;
  }
  return { groups, fns, total };
}

export default async function startProfile(): Promise<void> {
  const n = Number(process.env.PARALLAX_BENCH_PROFILES ?? 5);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${n} profiles of \`parallax run\` (bin/parallax.js) up to its first request`,
  );
  const runs: ReturnType<typeof summarize>[] = [];
  for (let i = 0; i < n; i++) {
    const { profile, firstUs } = await profiledRun();
    runs.push(summarize(profile, firstUs));
  }
  const rows = (key: 'groups' | 'fns') => {
    const names = new Set(runs.flatMap((r) => [...r[key].keys()]));
    return [...names]
      .map((name) => [name, median(runs.map((r) => r[key].get(name) ?? 0))] as const)
      .sort((a, b) => b[1] - a[1]);
  };
  const total = median(runs.map((r) => r.total));
  console.log(
    `profiled time before the first request (from the profiler's start, after Node's own boot), median: ${total.toFixed(0)} ms`,
  );
  console.log('| where the time went (self time) | ms, median | share |\n|---|---|---|');
  for (const [name, ms] of rows('groups').slice(0, 25))
    if (ms >= 0.5) console.log(`| ${name} | ${ms.toFixed(1)} | ${((ms / total) * 100).toFixed(0)} % |`);
  console.log('\nheaviest functions (self time, ms, median):');
  for (const [name, ms] of rows('fns').slice(0, Number(process.env.PARALLAX_BENCH_TOP ?? 15)))
    console.log(`  ${ms.toFixed(1).padStart(6)}  ${name}`);
}
