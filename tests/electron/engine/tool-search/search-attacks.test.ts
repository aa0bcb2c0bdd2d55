/**
 * search_tools fed a 10 MB "query" (which took 2.4 GB and minutes before): from a Code Mode program, from
 * ReAct + tool search, and directly. What must not happen: the query reaches the ranking, the worker's memory
 * grows with it, the call takes long.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReactSearchMode } from '../../../../electron/engine/modes/react-search-mode.js';
import { computeThread } from '../../../../electron/engine/tools/compute/compute-thread.js';
import { ALL_TOOLS, warmUpTools } from '../../../../electron/engine/tools/index.js';
import { rankTools, SearchRefused } from '../../../../electron/engine/tool-search/search-in-thread.js';
import { MAX_QUERY_CHARS } from '../../../../electron/engine/tool-search/search-tools.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { StepEventInput } from '../../../../shared/step-event.js';
import { harness, type Harness } from '../sandbox/helpers.js';

const HUGE = 'fetch web page '.repeat(700_000); // ~10 MB

let h: Harness;
let workspace: string;
beforeAll(async () => {
  h = await harness();
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-search-attack-')));
  await warmUpTools();
});
afterAll(async () => {
  await h.close();
  await rm(workspace, { recursive: true, force: true });
});

describe('search_tools with a 10 MB query', () => {
  it('is refused before ranking, at once, with what to send instead', async () => {
    const ranking = vi.spyOn(computeThread(), 'run');
    const error = await rankTools(HUGE, ALL_TOOLS, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchRefused);
    expect((error as Error).message).toMatch(
      new RegExp(`at most ${MAX_QUERY_CHARS} characters\\); this query has ${HUGE.length}`),
    );
    expect(ranking).not.toHaveBeenCalled(); // refused up front: the query never went to the ranking thread
    ranking.mockRestore();
    // A long but reasonable query still works.
    expect((await rankTools('download a web page and read its title', ALL_TOOLS, 5))[0].name).toBe('fetch_url');
  });

  it('from a Code Mode program: the call throws in the program, which goes on', async () => {
    const result = await h.run(
      `
      const huge = 'fetch web page '.repeat(700000);
      try { search_tools(huge); } catch (e) { print('refused: ' + String(e.message).slice(0, 60)); }
      print(search_tools('current time')[0]);`,
      { limits: { timeoutMs: 30_000 } },
    ); // building 10 MB in QuickJS takes seconds on a busy machine
    expect(result.error).toBeNull();
    expect(result.output).toContain('refused: search_tools takes a few English keywords');
    expect(result.output).toContain('current_time');
  });

  it('from ReAct + tool search: the model gets the refusal as the tool result, nothing is added to its tools', async () => {
    const mode = createReactSearchMode({ workspace, settings: parseSettings({}) });
    const events: StepEventInput[] = [];
    const before = mode.tools().length;
    const text = await mode.handleCall(
      'search_tools',
      { query: HUGE },
      { step: 1, callId: 'c1', signal: new AbortController().signal, emit: (e) => events.push(e) },
    );
    expect(text).toContain('search_tools takes a few English keywords');
    expect(mode.tools()).toHaveLength(before);
    expect(events).toHaveLength(1); // the attempt is still recorded
  });
});
