/**
 * Agent columns on the real engine and the simulated model: the tutorial's two Python agents beside ReAct and
 * Code Mode, every recorded step against what the model reported, and agents that misbehave (read the host's
 * key, hang, flood, fail, leave processes behind, overrun the step limit). Run with bubblewrap and with
 * PARALLAX_SANDBOX=off: both must hold.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_OUTPUT_BYTES } from '../../../../electron/engine/agent/agent-run.js';
import { shellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { agentRuns, EXAMPLES, finished, ofType, TEST_AGENTS } from '../../../helpers/agent-runs.js';

const { agentRun } = agentRuns('parallax-agent-run-');
const python = (script: string, ...args: string[]) => ({ command: ['python3', join(script), ...args] });
const misbehave = (what: string, ...args: string[]) => python(join(TEST_AGENTS, 'misbehave.py'), what, ...args);

describe('the tutorial agents as columns beside ReAct and Code Mode', () => {
  it('answers log-stats in every column, each agent step recorded with the usage the model reported', async () => {
    const runs = await Promise.all([
      // Without bubblewrap run_shell asks first (nobody answers here); the agents run their commands unasked.
      agentRun({ mode: 'react', settings: { approvals: { run_shell: 'allow' } } }),
      agentRun({ mode: 'code', settings: { approvals: { run_shell: 'allow' } } }),
      agentRun({ agent: python(join(EXAMPLES, 'tutorial/react_agent.py')) }),
      agentRun({ agent: python(join(EXAMPLES, 'tutorial/codemode_agent.py')) }),
    ]);
    for (const run of runs) {
      const end = finished(run.events);
      expect(end.status, end.error).toBe('answered');
      expect(end.validation?.ok, end.validation?.detail).toBe(true);
    }
    for (const run of runs.slice(2)) {
      const responses = ofType(run.events, 'model-response');
      // One step per request the model answered, each with exactly the usage it sent.
      expect(responses.length).toBe(run.replies.length);
      expect(responses.length).toBeGreaterThanOrEqual(2);
      responses.forEach((r, i) => {
        expect(r.step).toBe(i + 1);
        expect(r.usageSource).toBe('reported');
        expect(r.usage!.prompt).toBe(run.replies[i]!.usage!.prompt_tokens);
        expect(r.usage!.completion).toBe(run.replies[i]!.usage!.completion_tokens);
        // The waterfall's first-token mark, as for the built-in modes.
        expect(r.firstTokenMs).toBeGreaterThanOrEqual(0);
        expect(r.firstTokenMs).toBeLessThanOrEqual(r.latencyMs);
      });
      expect(finished(run.events).totals.prompt).toBe(run.replies.reduce((n, r) => n + r.usage!.prompt_tokens, 0));
      // Every call the model made has its result, taken from the agent's next request.
      const calls = responses.flatMap((r) => r.toolCalls);
      const results = ofType(run.events, 'tool-finished');
      expect(results.map((r) => r.callId).sort()).toEqual(calls.map((c) => c.id).sort());
      expect(results.every((r) => r.error === null && r.output.length > 0)).toBe(true);
      const started = ofType(run.events, 'run-started')[0]!;
      expect(started.mode).toBe('agent');
      expect(started.systemPrompt).toMatch(/helpful agent/);
      expect(started.tools.length).toBeGreaterThan(0);
      expect(started.shellSandbox?.kind).toBe(shellSandbox().kind);
    }
    // The tutorial's ReAct sends its six tools; its Code Mode sends run_code alone, with the short catalog.
    expect(ofType(runs[2]!.events, 'run-started')[0]!.tools.map((t) => t.name)).toEqual([
      'list_dir',
      'read_file',
      'write_file',
      'run_shell',
      'fetch_url',
      'current_time',
    ]);
    const code = ofType(runs[3]!.events, 'run-started')[0]!.tools;
    expect(code.map((t) => t.name)).toEqual(['run_code']);
    expect(code[0]!.description).toMatch(/search_tools\(query\)/);
  });

  for (const wire of ['openai-stream', 'anthropic', 'anthropic-stream']) {
    it(`records an agent that speaks ${wire} as it records the others`, async () => {
      const run = await agentRun({ agent: python(join(TEST_AGENTS, 'wire_agent.py'), wire) });
      const end = finished(run.events);
      expect(end.status, end.error).toBe('answered');
      expect(end.validation?.ok, end.validation?.detail).toBe(true);
      const responses = ofType(run.events, 'model-response');
      expect(responses.length).toBe(run.replies.length);
      responses.forEach((r, i) =>
        expect([r.usage!.prompt, r.usage!.completion]).toEqual([
          run.replies[i]!.usage!.prompt_tokens,
          run.replies[i]!.usage!.completion_tokens,
        ]),
      );
      const calls = responses.flatMap((r) => r.toolCalls);
      expect(calls.length).toBeGreaterThan(0);
      expect(
        ofType(run.events, 'tool-finished')
          .map((r) => r.callId)
          .sort(),
      ).toEqual(calls.map((c) => c.id).sort());
    });
  }
});

describe('an agent that misbehaves', () => {
  it("finds no key of the host in its environment, only its run's token", async () => {
    process.env.PARALLAX_TEST_SECRET_KEY = 'sk-host-env-secret-0001';
    let run;
    try {
      run = await agentRun({ agent: misbehave('env'), apiKey: 'sk-host-provider-key-0002' });
    } finally {
      delete process.env.PARALLAX_TEST_SECRET_KEY;
    }
    const end = finished(run.events);
    expect(end.status, end.error).toBe('answered');
    const env = JSON.parse(end.answer) as Record<string, string>;
    const text = JSON.stringify(env);
    expect(text).not.toContain('sk-host');
    for (const [name, value] of Object.entries(process.env))
      if (value && value.length >= 8 && /KEY|TOKEN|SECRET/i.test(name)) expect(text).not.toContain(value);
    expect(env.OPENAI_API_KEY).toMatch(/^px-run-[0-9a-f]{48}$/);
    expect(env.ANTHROPIC_API_KEY).toBe(env.OPENAI_API_KEY);
    expect(env.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(env.PARALLAX_TASK).toMatch(/ERROR/);
    expect(env.PARALLAX_MODEL).toBe('sim');
    // Nothing of the parent's environment beyond what Parallax sets.
    expect(env.HOME).not.toBe(process.env.HOME);
  });

  it('is stopped at its time limit, with everything it started', async () => {
    // It sleeps 600 s: only its 2 s limit can end the run within the test's own timeout.
    const tag = `agent-hang-${process.pid}-${Date.now()}`;
    const run = await agentRun({ agent: { ...misbehave('hang', tag), timeoutMs: 2000 } });
    const end = finished(run.events);
    expect(end.status).toBe('error');
    expect(end.error).toMatch(/time limit of 2 s/);
    expect(await leftAfterReaping(tag)).toEqual([]);
  });

  it('floods its output: an error that says how much it wrote, not an answer, and the run still ends', async () => {
    const run = await agentRun({ agent: misbehave('flood') });
    const end = finished(run.events);
    expect(end.status).toBe('error');
    expect(end.answer).toBe('');
    expect(end.error).toMatch(
      new RegExp(
        `wrote ${2000 * 65536} bytes to its standard output, more than an answer may hold \\(${AGENT_OUTPUT_BYTES} bytes\\)`,
      ),
    );
    expect(end.error!.length).toBeLessThan(600);
  });

  it('exits non-zero: an error with the tail of its standard error', async () => {
    const run = await agentRun({ agent: misbehave('fail') });
    const end = finished(run.events);
    expect(end.status).toBe('error');
    expect(end.error).toMatch(/exited with status 3/);
    expect(end.error).toMatch(/the real reason: the tool server is down/);
    expect(end.error!.length).toBeLessThan(2300);
  });

  it('leaves processes behind, one in a session of its own: all are ended with the run', async () => {
    const tag = `agent-bg-${process.pid}-${Date.now()}`;
    const run = await agentRun({ agent: misbehave('background', tag) });
    expect(finished(run.events).answer).toBe('left three sleepers behind');
    expect(await leftAfterReaping(tag)).toEqual([]);
  });

  it('asks for more model requests than max steps: stopped as max-steps after exactly that many', async () => {
    const run = await agentRun({ agent: python(join(EXAMPLES, 'tutorial/react_agent.py')), settings: { maxSteps: 2 } });
    const end = finished(run.events);
    expect(end.status).toBe('max-steps');
    expect(ofType(run.events, 'model-response').length).toBe(2);
    expect(run.replies.length).toBe(2);
  });

  it('sends 30 requests at once with max steps 2: no more than 2 reach the model, and the run ends as max-steps', async () => {
    const run = await agentRun({ agent: misbehave('concurrent', '30'), settings: { maxSteps: 2 } });
    const end = finished(run.events);
    expect(end.status, end.error).toBe('max-steps');
    expect(run.replies.length).toBeLessThanOrEqual(2);
    expect(ofType(run.events, 'model-request').length).toBeLessThanOrEqual(2);
    expect(ofType(run.events, 'model-response').length).toBeLessThanOrEqual(2);
  });

  it('sends a failing request again and again: 1 + maxRetries attempts reach the model, then the run ends saying why', async () => {
    const run = await agentRun({ agent: misbehave('resend', '12'), settings: { maxRetries: 1, simFaults: ['500'] } });
    const end = finished(run.events);
    expect(run.replies.length).toBe(2);
    expect(ofType(run.events, 'model-retry').length).toBe(2);
    expect(end.status).toBe('error');
    expect(end.error).toMatch(/step 1 failed 2 times .*max retries 1/);
  });

  it('looks for a key in the environment of the other processes of this user (/proc/PID/environ): finds none', async () => {
    const canary = `sk-proc-canary-${process.pid}-${Date.now()}`;
    // A process of this user holding a key in its environment, as `parallax serve` started with OPENAI_API_KEY does.
    const holder = spawn('sleep', ['120'], { env: { ...process.env, OPENAI_API_KEY: canary }, stdio: 'ignore' });
    try {
      const run = await agentRun({ agent: misbehave('proc', canary) });
      const end = finished(run.events);
      expect(end.status, end.error).toBe('answered');
      const info = shellSandbox();
      if (info.kind === 'bubblewrap' || info.unshare) expect(end.answer).toBe('not found');
      else {
        // No namespace can be made here: the agent reads what this user can, and the record says so.
        expect(end.answer).toMatch(/^found in/);
        expect(ofType(run.events, 'run-started')[0]!.shellSandbox?.reason).toMatch(
          /environment and memory of your other processes/,
        );
      }
    } finally {
      holder.kill('SIGKILL');
    }
  });

  for (const [task, name] of [
    ['write-errors', 'errors.log'],
    ['log-stats', 'zz.txt'],
  ] as const) {
    for (const kind of ['fifo', 'link'] as const) {
      it(`leaves ${name} as a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'} for the ${task} validator: the run ends, saying so`, async () => {
        const run = await agentRun({ task, agent: misbehave('trap-file', kind, name) });
        const end = finished(run.events);
        expect(end.status, end.error).toBe('answered');
        expect(end.validation?.ok).toBe(false);
        expect(end.validation?.detail).toMatch(
          kind === 'fifo'
            ? new RegExp(
                `${name.replace('.', '\\.')} is a named pipe \\(FIFO\\), not a regular file: the validator reads regular files only`,
              )
            : new RegExp(
                `${name.replace('.', '\\.')} is a symbolic link, not a regular file: the validator reads regular files only`,
              ),
        );
      });
    }
  }

  it('sends requests that are no step: each is shown in the record, none counted', async () => {
    const run = await agentRun({ agent: misbehave('other') });
    const end = finished(run.events);
    expect(end.answer).toBe('404 401');
    const warnings = ofType(run.events, 'run-warning').map((w) => w.message);
    expect(warnings.some((w) => /POST \/v1\/embeddings .* answered 404/.test(w))).toBe(true);
    expect(warnings.some((w) => /answered 401/.test(w))).toBe(true);
    expect(ofType(run.events, 'model-request')).toEqual([]);
    expect(run.replies).toEqual([]);
  });

  it('is cancelled mid-run: ended, and recorded as cancelled', async () => {
    // It sleeps 600 s: only the cancel can end the run within the test's own timeout. Cancelled once it runs.
    const tag = `agent-cancel-${process.pid}-${Date.now()}`;
    const ac = new AbortController();
    let ended = false;
    const running = agentRun({ agent: misbehave('hang', tag), signal: ac.signal }).finally(() => (ended = true));
    while (!ended && processesWith(tag).length === 0) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const run = await running;
    expect(finished(run.events).status).toBe('cancelled');
    expect(await leftAfterReaping(tag)).toEqual([]);
  });
});

/** What is left with `tag` once killed processes have had time to be reaped (a busy machine reaps slowly). */
async function leftAfterReaping(tag: string): Promise<string[]> {
  for (let i = 0; i < 1500 && processesWith(tag).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return processesWith(tag);
}

/** Live processes whose command line holds `tag`. */
function processesWith(tag: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd.includes(tag) && state !== 'Z') found.push(`${name}: ${cmd}`);
    } catch {
      /* gone */
    }
  }
  return found;
}
