/**
 * The simulated model serving another agent: a run_code tool that asks for Python and tools that answer in
 * plain text. The agent side here is a small Python harness (the tools as plain Python functions, as the
 * reference tutorial wrote them) run by the real python3, so the programs the simulated model writes are
 * executed for real, errors and all.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { PY_PROGRAMS, programLanguage } from '../../../electron/sim/policies/programs.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { capturingClient, fixtureFolders, type Msg, type WireCall } from './drive.js';

const hasPython = spawnSync('python3', ['-c', 'import zoneinfo'], { stdio: 'ignore' }).status === 0;

/** The tools as another agent would write them: plain functions returning str, list or dict. */
const PRELUDE = String.raw`
import os, re, json, datetime, urllib.request
from zoneinfo import ZoneInfo
def list_dir(path='.'):
    return sorted(n + '/' if os.path.isdir(os.path.join(path, n)) else n for n in os.listdir(path))
def read_file(path):
    with open(path, encoding='utf-8') as f:
        return f.read()
def write_file(path, content):
    with open(path, 'w', encoding='utf-8') as f:
        return f.write(content)
def fetch_url(url):
    """Download a web page and return a dict with its status, title and text."""
    with urllib.request.urlopen(url, timeout=5) as r:
        html = r.read().decode('utf-8')
        status = r.status
    m = re.search(r'<title>(.*?)</title>', html, re.I | re.S)
    return {'status': status, 'title': m.group(1).strip() if m else '', 'text': re.sub(r'<[^>]+>', ' ', html)[:500]}
def current_time(timezone='UTC'):
    """Get the current time in a timezone."""
    now = datetime.datetime.now(ZoneInfo(timezone))
    return {'timezone': timezone, 'iso': now.isoformat(), 'local': now.strftime('%Y-%m-%d %H:%M:%S'), 'weekday': now.strftime('%A')}
class ToolHandle:
    def __init__(self, fn): self.fn = fn
    def __call__(self, *a, **k): return self.fn(*a, **k)
    def describe(self): return self.fn.__name__ + '(...)\n' + (self.fn.__doc__ or '')
def search_tools(query):
    words = re.findall(r'\w+', query.lower())
    scored = []
    for fn in (fetch_url, current_time):
        hay = (fn.__name__.replace('_', ' ') + ' ' + (fn.__doc__ or '')).lower()
        score = sum(w in hay for w in words)
        if score: scored.append((score, fn))
    scored.sort(key=lambda p: -p[0])
    return [ToolHandle(fn) for _, fn in scored]
`;

const PY_RUN_CODE = {
  type: 'function',
  function: {
    name: 'run_code',
    description:
      "Run a Python program. Only what it print()s is returned to you. Available functions:\n- list_dir(path='.')\n- read_file(path)\n- write_file(path, content)\n" +
      '- search_tools(query) -> list of tool handles for other tools; call a handle like a function, or print(handle.describe()).',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
  },
};

/**
 * Runs a program the way the tutorial's run_code does: printed output, then the error, if any. Asynchronous:
 * the fixture page is served from this same process.
 */
async function runPython(code: string, cwd: string): Promise<string> {
  const { printed, error } = await new Promise<{ printed: string; error: string }>((resolve) => {
    execFile(
      'python3',
      ['-c', `${PRELUDE}\n${code}`],
      { cwd, encoding: 'utf8', timeout: 10_000 },
      (err, stdout, stderr) => resolve({ printed: stdout, error: err ? stderr.trim() || err.message : '' }),
    );
  });
  return [printed.trimEnd(), error].filter(Boolean).join('\n') || '(no output -- use print() to return results)';
}

let sim: SimServer;
let page: FixtureServer;
const folders = fixtureFolders('parallax-python-agent');

beforeAll(async () => {
  sim = await startSimServer();
  page = await startFixtureServer();
});
afterAll(async () => {
  await sim.close();
  await page.close();
  await folders.removeAll();
});

async function pythonAgent(task: string, workspace: string, trial: number) {
  const bodies: Record<string, unknown>[] = [];
  const client = capturingClient(sim.url, bodies, { 'x-parallax-sim-trial': String(trial) });
  const messages: Msg[] = [
    { role: 'system', content: 'You are a helpful agent.' },
    { role: 'user', content: task },
  ];
  const programs: { code: string; result: string }[] = [];
  for (let step = 0; step < 8; step++) {
    const reply = await client.chat.completions.create({
      model: 'sim',
      messages: messages as never,
      tools: [PY_RUN_CODE] as never,
    });
    const message = reply.choices[0].message;
    const calls = (message.tool_calls ?? []) as WireCall[];
    messages.push({ role: 'assistant', content: message.content, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) return { answer: message.content ?? '', programs };
    for (const call of calls) {
      const code = String((JSON.parse(call.function.arguments) as { code: unknown }).code);
      const result = await runPython(code, workspace);
      programs.push({ code, result });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  throw new Error('no answer after 8 steps');
}

describe.skipIf(!hasPython)('Python programs for an agent whose run_code asks for Python', () => {
  it('the language follows the run_code description', () => {
    expect(programLanguage({ runCodeDescription: PY_RUN_CODE.function.description })).toBe('python');
    expect(programLanguage({ runCodeDescription: 'Run a JavaScript program. Only what it prints…' })).toBe(
      'javascript',
    );
    expect(programLanguage({ runCodeDescription: '' })).toBe('javascript');
    // Every Python program the policies write at least compiles.
    for (const code of [
      PY_PROGRAMS.ownerChain,
      PY_PROGRAMS.catalogCalls([{ variable: 'convertMoney', query: 'convert currency', args: [250, 'USD'] }]),
      PY_PROGRAMS.logStats,
      PY_PROGRAMS.explore,
      PY_PROGRAMS.guessTitle('http://x'),
      PY_PROGRAMS.inspectPage('http://x'),
      PY_PROGRAMS.configPort('c.json'),
      PY_PROGRAMS.writeErrors('a.log', 'b.log'),
      PY_PROGRAMS.findAndRead('notes'),
    ]) {
      expect(() => execFileSync('python3', ['-c', `import ast, sys; ast.parse(sys.argv[1])`, code])).not.toThrow();
    }
  });

  it.each([1, 2, 3, 4])('log-stats, trial %i: Python programs count every file right', async (trial) => {
    const workspace = await folders.workspaceFor('log-stats', trial);
    const task = resolveTask('log-stats', { fixtureUrl: null });
    const run = await pythonAgent(task.text, workspace, trial);
    expect(run.programs.length).toBeGreaterThan(0);
    expect(run.programs.every((p) => !p.result.includes('Traceback'))).toBe(true);
    expect(run.programs.at(-1)!.code).toBe(PY_PROGRAMS.logStats);
    expect((await validateAnswer(task, run.answer, { workspace }))?.ok).toBe(true);
  });

  it("time-and-title, trial 1: guesses the page is HTML text, reads Python's TypeError, inspects the dict, answers", async () => {
    const workspace = await folders.emptyFolder('time-and-title');
    const task = resolveTask('time-and-title', { fixtureUrl: page.url });
    const run = await pythonAgent(task.text, workspace, 1);
    expect(
      run.programs.map((p) => p.result),
      run.answer,
    ).toHaveLength(2);
    expect(run.programs[0].result).toMatch(
      /Traceback \(most recent call last\):[\s\S]*TypeError: expected string or bytes-like object/,
    );
    expect(run.programs[1].result).toMatch(/^type: dict, keys: status, title, text$/m);
    expect((await validateAnswer(task, run.answer, { workspace }))?.ok).toBe(true);
  });

  it.each(['config-lookup', 'write-errors', 'missing-file'])(
    '%s: the Python programs answer right on two seeds',
    async (taskId) => {
      for (const seed of [2, 31]) {
        const workspace = await folders.workspaceFor(taskId, seed);
        const task = resolveTask(taskId, { fixtureUrl: null });
        const run = await pythonAgent(task.text, workspace, 1);
        expect((await validateAnswer(task, run.answer, { workspace }))?.ok, run.answer).toBe(true);
      }
    },
  );

  it("missing-file: recovers from Python's own FileNotFoundError", async () => {
    const workspace = await folders.workspaceFor('missing-file', 5);
    const run = await pythonAgent(resolveTask('missing-file', { fixtureUrl: null }).text, workspace, 1);
    expect(run.programs).toHaveLength(2);
    expect(run.programs[0].result).toMatch(
      /FileNotFoundError: \[Errno 2\] No such file or directory: 'release-notes\.txt'/,
    );
    expect(run.programs[1].result).toMatch(/^found: docs\/release-notes\.md$/m);
  });

  it.each([1, 2, 3])(
    'owner-chain, seed %i: one Python program follows the log, the config and the person file',
    async (seed) => {
      const workspace = await folders.workspaceFor('owner-chain', seed);
      const task = resolveTask('owner-chain', { fixtureUrl: null });
      const run = await pythonAgent(task.text, workspace, 1);
      expect(run.programs.map((p) => p.code)).toEqual([PY_PROGRAMS.ownerChain]);
      expect(run.programs[0].result).not.toContain('Traceback');
      expect((await validateAnswer(task, run.answer, { workspace }))?.ok, run.answer).toBe(true);
    },
  );
});
