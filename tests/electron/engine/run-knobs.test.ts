/**
 * The experiment knobs (shared/run-knobs.ts) and the simulated model's personalities, end to end: each knob
 * changes what the model is sent (request bodies captured between the engine and the simulated server), and
 * the simulated policies answer the change the way the tutorial's exercises describe.
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType, type WireBody } from '../../helpers/knob-runs.js';
import { firstSentence } from '../../../electron/engine/tools/tool-descriptions.js';
import { ALL_TOOLS } from '../../../electron/engine/tools/index.js';

const { knobRun, fixtureUrl } = knobRuns('parallax-knobs-');
const toolOf = (body: WireBody, name: string) => body.tools!.find((t) => t.function.name === name)!.function;
const systemOf = (body: WireBody) => String(body.messages.find((m) => m.role === 'system')!.content);

describe('toolDescriptions', () => {
  it('full sends each description as written; one-line its first sentence; vague one sentence per argument shape', async () => {
    const [full, oneLine, vague] = await Promise.all(
      (['full', 'one-line', 'vague'] as const).map((toolDescriptions) =>
        knobRun({ task: 'log-stats', mode: 'react', settings: { toolDescriptions } }),
      ),
    );
    for (const tool of ALL_TOOLS) {
      expect(toolOf(full.requests[0], tool.name).description).toBe(tool.description);
      expect(toolOf(oneLine.requests[0], tool.name).description).toBe(firstSentence(tool.description));
    }
    // Same argument names, same vague sentence: the model cannot tell list_dir from read_file.
    expect(toolOf(vague.requests[0], 'read_file').description).toBe('Do something with a path.');
    expect(toolOf(vague.requests[0], 'list_dir').description).toBe('Do something with a path.');
    expect(toolOf(vague.requests[0], 'write_file').description).toBe('Do something with a path and a content.');
    // Parameter names stay; their explanations, which would give the tool away, go.
    const params = toolOf(vague.requests[0], 'read_file').parameters.properties;
    expect(Object.keys(params)).toEqual(['path']);
    expect(params.path.description).toBeUndefined();
    expect(toolOf(full.requests[0], 'read_file').parameters.properties.path.description).toMatch(
      /relative to the workspace/,
    );
    // The first request is smaller by what the descriptions no longer say.
    const firstPrompt = (r: typeof full) => ofType(r.events, 'model-response')[0].usage!.prompt;
    expect(firstPrompt(vague)).toBeLessThan(firstPrompt(oneLine));
    expect(firstPrompt(oneLine)).toBeLessThan(firstPrompt(full));
    // Vague descriptions: a wrong first tool (read_file on the folder), then the recovery, still right.
    expect(ofType(full.events, 'tool-started')[0].name).toBe('run_shell');
    const firstCall = ofType(vague.events, 'tool-started')[0];
    expect([firstCall.name, firstCall.args]).toEqual(['read_file', { path: '.' }]);
    expect(ofType(vague.events, 'tool-finished')[0].error).toMatch(/folder/);
    expect(vague.summary.validation?.ok).toBe(true);
    expect(vague.summary.totals.steps).toBeGreaterThan(full.summary.totals.steps);
  });

  it('reaches the text ReAct prompt list and the search results of ReAct + tool search', async () => {
    const text = await knobRun({ task: 'log-stats', mode: 'react-text', settings: { toolDescriptions: 'vague' } });
    expect(systemOf(text.requests[0])).toMatch(/^- read_file: Do something with a path\. Input:/m);
    const search = await knobRun({
      task: 'time-and-title',
      mode: 'react-search',
      settings: { toolDescriptions: 'vague' },
    });
    const results = ofType(search.events, 'tool-finished')
      .filter((t) => t.name === 'search_tools')
      .map((t) => t.output);
    // What the tool does is no longer in its text: the search by purpose misses, the search by name finds it.
    expect(results.some((r) => /^No tool matched "download web page"/.test(r))).toBe(true);
    expect(results.some((r) => /- fetch_url\(url: string\): .* — Do something with a url\./.test(r))).toBe(true);
    expect(search.summary.validation?.ok).toBe(true);
  });

  it('reaches Code Mode through search and describe(): a search by purpose misses, the program fails, the next one finds the tool by name', async () => {
    const full = await knobRun({ task: 'time-and-title', mode: 'code' });
    const vague = await knobRun({ task: 'time-and-title', mode: 'code', settings: { toolDescriptions: 'vague' } });
    const runs = ofType(vague.events, 'code-run');
    expect(runs[0].error?.message).toMatch(/not a function/);
    expect(runs[1].code).toContain('search_tools("fetch url")');
    expect(vague.summary.validation?.ok).toBe(true);
    expect(vague.summary.totals.steps).toBe(full.summary.totals.steps + 1);
  });
});

describe('simulated model names', () => {
  it('sim-careful checks before answering and sim-hasty answers in one parallel step (log-stats, ReAct)', async () => {
    const careful = await knobRun({ task: 'log-stats', mode: 'react', model: 'sim-careful' });
    const hasty = await knobRun({ task: 'log-stats', mode: 'react', model: 'sim-hasty' });
    expect(careful.requests.every((r) => (r as unknown as { model: string }).model === 'sim-careful')).toBe(true);
    expect(careful.summary.totals.steps).toBe(5);
    expect(hasty.summary.totals.steps).toBe(2);
    expect(ofType(hasty.events, 'model-response')[0].toolCalls.map((c) => c.name)).toEqual(['run_shell', 'run_shell']);
    expect(careful.summary.validation?.ok).toBe(true);
    expect(hasty.summary.validation?.ok).toBe(true);
  });

  it('sim-hasty miscounts in Code Mode on trial 1 (split on newlines); sim-careful explores first and is right', async () => {
    const hasty = await knobRun({ task: 'log-stats', mode: 'code', model: 'sim-hasty' });
    const careful = await knobRun({ task: 'log-stats', mode: 'code', model: 'sim-careful' });
    expect(hasty.summary.status).toBe('answered');
    expect(hasty.summary.validation?.ok).toBe(false);
    expect(careful.summary.validation?.ok).toBe(true);
    expect(careful.summary.totals.steps).toBeGreaterThan(hasty.summary.totals.steps);
  });

  it('with return types hidden, sim-careful reads describe() and sim-hasty guesses the result is HTML', async () => {
    const settings = { returnTypes: false };
    const careful = await knobRun({ task: 'time-and-title', mode: 'code', settings, model: 'sim-careful', trial: 2 });
    const hasty = await knobRun({ task: 'time-and-title', mode: 'code', settings, model: 'sim-hasty', trial: 2 });
    expect(ofType(careful.events, 'code-run')[0].code).toContain('.describe()');
    expect(ofType(careful.events, 'code-run').every((r) => r.error === null)).toBe(true);
    expect(ofType(hasty.events, 'code-run')[0].error?.message).toMatch(/TypeError/);
    expect(careful.summary.validation?.ok).toBe(true);
    expect(hasty.summary.validation?.ok).toBe(true);
  });

  it('sim-hasty guesses an argument name on some trials: the check fails, the loop goes on, the next step uses the right name', async () => {
    const { events, summary } = await knobRun({ task: 'log-stats', mode: 'react', model: 'sim-hasty', trial: 3 });
    const finished = ofType(events, 'tool-finished');
    expect(finished.slice(0, 2).every((t) => t.error !== null && /command/.test(t.error))).toBe(true);
    expect(summary.totals.steps).toBe(3);
    expect(summary.validation?.ok).toBe(true);
  });
});

describe('toolSearch call-tool', () => {
  it('keeps the tool list fixed, adds call_tool, and records forwarded calls as the tools they name', async () => {
    const added = await knobRun({ task: 'time-and-title', mode: 'react-search' });
    const forwarded = await knobRun({
      task: 'time-and-title',
      mode: 'react-search',
      settings: { toolSearch: 'call-tool' },
    });
    const toolNames = (body: WireBody) => body.tools!.map((t) => t.function.name);
    // 'add-tools': the list grows after the search (a prompt cache's prefix changes); 'call-tool': it never does.
    expect(toolNames(added.requests[1])).toContain('fetch_url');
    expect(new Set(forwarded.requests.map((r) => JSON.stringify(r.tools)))).toHaveProperty('size', 1);
    expect(toolNames(forwarded.requests[0])).toEqual([
      'list_dir',
      'read_file',
      'write_file',
      'run_shell',
      'search_tools',
      'call_tool',
    ]);
    expect(systemOf(forwarded.requests[0])).toMatch(/call_tool\(name, arguments\)/);
    // The search result carries what the tools list no longer does: each found tool's argument schema.
    const search = ofType(forwarded.events, 'tool-finished').find(
      (t) => t.name === 'search_tools' && /fetch_url/.test(t.output),
    )!;
    expect(search.output).toMatch(
      /call it with call_tool\(name, arguments\)[\s\S]*- fetch_url\(url: string\)[^\n]*\n {2}arguments: \{"type":"object","properties":\{"url"/,
    );
    const calls = ofType(forwarded.events, 'tool-started').filter((t) => t.forwardedBy === 'call_tool');
    expect(calls.map((c) => c.name).sort()).toEqual(['current_time', 'fetch_url']);
    expect(calls.find((c) => c.name === 'fetch_url')!.args).toEqual({ url: fixtureUrl() });
    const responses = ofType(forwarded.events, 'model-response');
    expect(responses[1].toolCalls.map((c) => c.name)).toEqual(['call_tool', 'call_tool']);
    expect(forwarded.summary.validation?.ok).toBe(true);
  });

  it('goes through the approval gate as the forwarded tool: a denied tool stays denied through call_tool', async () => {
    const { events } = await knobRun({
      task: 'time-and-title',
      mode: 'react-search',
      settings: { toolSearch: 'call-tool', approvals: { fetch_url: 'deny' } },
    });
    const fetch = ofType(events, 'tool-finished').find((t) => t.name === 'fetch_url')!;
    expect(fetch.forwardedBy).toBe('call_tool');
    expect(fetch.error).toMatch(/denied|not allowed/i);
    expect(ofType(events, 'tool-finished').find((t) => t.name === 'current_time')!.error).toBeNull();
  });
});

describe('codeState persist', () => {
  it("tells the model variables stay, and the simulated second program reuses the first one's names: fewer completion tokens", async () => {
    const fresh = await knobRun({ task: 'log-stats', mode: 'code' });
    const persist = await knobRun({ task: 'log-stats', mode: 'code', settings: { codeState: 'persist' } });
    const description = (r: typeof fresh) => toolOf(r.requests[0], 'run_code').description;
    expect(description(fresh)).toMatch(/Each call starts fresh: nothing carries over\./);
    expect(description(persist)).toMatch(
      /Top-level variables and functions stay for your next run_code call in this run/,
    );
    const runs = ofType(persist.events, 'code-run');
    expect(runs[0].state!.variables.map((v) => v.name)).toContain('names');
    expect(runs[1].code).toMatch(/^for \(const name of names\.filter/);
    expect(runs[1].toolCalls.map((c) => c.name)).not.toContain('list_dir');
    const completion = (r: typeof fresh, i: number) => ofType(r.events, 'model-response')[i].usage!.completion;
    expect(completion(persist, 1)).toBeLessThan(completion(fresh, 1));
    expect(persist.summary.validation?.ok).toBe(true);
  });
});
