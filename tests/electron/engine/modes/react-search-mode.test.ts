/** ReAct + tool search as the loop sees it: a short first tool list that grows with what search_tools finds. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, ModeAdapter } from '../../../../electron/engine/modes/mode.js';
import { createReactMode } from '../../../../electron/engine/modes/react-mode.js';
import { createReactSearchMode } from '../../../../electron/engine/modes/react-search-mode.js';
import { firstSentence } from '../../../../electron/engine/tools/tool-descriptions.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { StepEventInput, ToolSearchEvent } from '../../../../shared/step-event.js';

let workspace: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-react-search-')));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const create = (returnTypes = true): ModeAdapter =>
  createReactSearchMode({ workspace, settings: parseSettings({ returnTypes }) });

function context(step = 1, callId = 'call_1'): CallContext & { events: StepEventInput[] } {
  const events: StepEventInput[] = [];
  return { step, callId, signal: new AbortController().signal, emit: (e) => events.push(e), events };
}

const names = (mode: ModeAdapter) => mode.tools().map((t) => t.name);

describe('ReAct + tool search', () => {
  it('starts with the four common tools and search_tools, schemas as in ReAct', () => {
    const mode = create();
    expect(names(mode)).toEqual(['list_dir', 'read_file', 'write_file', 'run_shell', 'search_tools']);
    const react = createReactMode({ workspace, settings: parseSettings({}) }).tools();
    expect(mode.tools().slice(0, 4)).toEqual(react.slice(0, 4));
    expect(mode.systemPrompt).toMatch(/search_tools/);
  });

  it('lists the hits with signature and first sentence, emits one tool-search event, and offers them from then on', async () => {
    const mode = create();
    const ctx = context(1, 'call_s');
    const text = await mode.handleCall('search_tools', { query: 'weather temperature for a city' }, ctx);
    expect(text.split('\n')[0]).toBe(
      'Found 1 tool for "weather temperature for a city"; call it by name from your next step:',
    );
    expect(text).toContain(
      '- get_weather(city: string): {city: string, tempC: number, condition: string, demo: true} — Get the current temperature (°C) and sky condition for a city.',
    );
    expect(text).not.toContain('DEMO DATA');
    const event = ctx.events[0] as Omit<ToolSearchEvent, 'runId' | 'seq' | 't'>;
    expect(ctx.events).toHaveLength(1);
    expect(event).toMatchObject({
      type: 'tool-search',
      step: 1,
      callId: 'call_s',
      query: 'weather temperature for a city',
    });
    expect(event.hits.map((h) => h.name)).toEqual(['get_weather']);
    expect(names(mode)).toEqual(['list_dir', 'read_file', 'write_file', 'run_shell', 'search_tools', 'get_weather']);
    // Found in step 1: not callable in that same step, callable in the next.
    await expect(mode.handleCall('get_weather', { city: 'Beijing' }, context(1))).rejects.toThrow(
      /same step.*next step/,
    );
    expect(JSON.parse(await mode.handleCall('get_weather', { city: 'Beijing' }, context(2)))).toMatchObject({
      city: 'Beijing',
      demo: true,
    });
    // A second search finding it again adds nothing.
    await mode.handleCall('search_tools', { query: 'weather' }, context(2));
    expect(names(mode).filter((n) => n === 'get_weather')).toHaveLength(1);
  });

  it('tells a model that calls a hidden tool before searching how to find it, and stops once it is loaded', async () => {
    const mode = create();
    expect(mode.unknownToolHint?.('fetch_url')).toMatch(
      /^fetch_url exists but is not loaded yet: find it with search_tools first \(e\.g\. \{"query": "fetch url"\}\)/,
    );
    expect(mode.unknownToolHint?.('teleport')).toBeNull();
    await mode.handleCall('search_tools', { query: 'download web page' }, context(1));
    expect(names(mode)).toContain('fetch_url');
    expect(mode.unknownToolHint?.('fetch_url')).toBeNull();
  });

  it('says when nothing matched, suggests other words and names offered tools that fit', async () => {
    const mode = create();
    const ctx = context();
    expect(await mode.handleCall('search_tools', { query: 'xyzzy' }, ctx)).toMatch(
      /^No tool matched "xyzzy"\. Try other English words/,
    );
    expect(await mode.handleCall('search_tools', { query: 'list directory' }, ctx)).toMatch(
      /Already offered to you: list_dir\.$/,
    );
    expect(ctx.events.map((e) => (e as ToolSearchEvent).hits)).toEqual([[], []]);
    expect(names(mode)).toHaveLength(5);
  });

  it('shows signatures without return types when the setting hides them, and explains a missing query', async () => {
    const mode = create(false);
    const ctx = context();
    const text = await mode.handleCall('search_tools', { query: 'download web page' }, ctx);
    expect(text).toContain('- fetch_url(url: string) — Download a web page');
    expect((ctx.events[0] as ToolSearchEvent).hits[0].signature).toBe('fetch_url(url: string)');
    expect(await mode.handleCall('search_tools', { q: 'time' }, context())).toMatch(
      /^search_tools needs \{"query": "<English keywords>"\}/,
    );
  });

  it('cuts a description at its first sentence, not at an abbreviation', () => {
    expect(firstSentence('Evaluate one expression, e.g. "1 + 2" or "3 * 4". Supports + and -.')).toBe(
      'Evaluate one expression, e.g. "1 + 2" or "3 * 4".',
    );
    expect(firstSentence('No full stop here')).toBe('No full stop here');
  });
});
