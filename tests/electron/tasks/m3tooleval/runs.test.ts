/**
 * M3ToolEval through the real engine, sandboxes and simulated server, as the registry hands it to a worker: a
 * task of each domain in every mode is answered right and judged by the paper's scoring; the runs offer the
 * domain's tools only (schemas in ReAct, the list in ReAct (text)'s prompt, the catalog with Python signatures
 * in Code Mode (Python), search in ReAct + tool search); a rounded total is told "incorrect" by the harness and
 * corrected in the next step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The Code Mode (Python) runs' programs on one Pyodide child (tests/helpers/shared-sandboxes.ts).
vi.mock('../../../../electron/engine/sandbox/python/py-sandbox.js', async (original) =>
  (await import('../../../helpers/shared-sandboxes.js')).onePyChild(await original()),
);
import { closeSharedSandboxes } from '../../../helpers/shared-sandboxes.js';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../../../electron/sim/index.js';
import { runTaskOf } from '../../../../electron/tasks/index.js';
import { WRONG_ANSWER_FEEDBACK } from '../../../../electron/tasks/m3tooleval/score.js';
import { MODE_IDS, type ModeId } from '../../../../shared/modes.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { findTask } from '../../../../shared/tasks.js';

let sim: SimServer;
const dirs: string[] = [];
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  closeSharedSandboxes();
  await sim.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function run(id: string, mode: ModeId) {
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-m3-'));
  dirs.push(workspace);
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id, text: findTask(id)!.text },
      mode,
      provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings({}),
      workspace,
    },
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf({ id }),
  );
  const finished = events.find((e): e is Extract<StepEvent, { type: 'run-finished' }> => e.type === 'run-finished')!;
  const started = events.find((e): e is Extract<StepEvent, { type: 'run-started' }> => e.type === 'run-started')!;
  return { finished, started, events };
}

const ONE_PER_DOMAIN = [
  'm3tooleval/message_decoder/hex_caesar_combined_decoding',
  'm3tooleval/dna_sequencer/find_most_common_nucleotide_combined_sequence',
  'm3tooleval/trade_calculator/interstellar_trade_transaction',
  'm3tooleval/travel_itinerary_planning/multi_city_business_trip',
  'm3tooleval/web_browsing/email_of_henry_santiago',
];
const TRAVEL_TOOLS = ['find_flights', 'book_hotel', 'budget_calculator', 'max', 'min', 'sum'];

describe('M3ToolEval in every mode', () => {
  // The DNA task's answer is a tuple: JavaScript programs (Code Mode, Hybrid) print it as JSON, which the paper's
  // scoring does not take (sim.test.ts and programs.test.ts cover that case).
  const js = (m: ModeId) => m === 'code' || m === 'hybrid';
  const cases = ONE_PER_DOMAIN.flatMap((id) =>
    MODE_IDS.filter((m) => !(js(m) && id.includes('dna_sequencer'))).map((mode) => [id, mode] as const),
  );

  it.each(cases)("%s in %s: answered and judged right by the paper's scoring", async (id, mode) => {
    const { finished } = await run(id, mode);
    expect(finished.status, finished.error).toBe('answered');
    expect(finished.validation, finished.answer).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/by M3ToolEval's scoring/),
    });
  });

  it("offers the domain's tools only, each mode its own way", async () => {
    const id = 'm3tooleval/travel_itinerary_planning/luxury_tokyo_trip';
    const react = (await run(id, 'react')).started;
    expect(react.tools.map((t) => t.name)).toEqual(TRAVEL_TOOLS);
    const text = (await run(id, 'react-text')).started;
    for (const name of TRAVEL_TOOLS) expect(text.systemPrompt).toContain(`- ${name}:`);
    expect(text.systemPrompt).not.toContain('read_file');
    const py = (await run(id, 'code-py')).started;
    const runCode = py.tools.find((t) => t.name === 'run_code')!;
    expect(runCode.description).toContain('def book_hotel(location: str, *preferences: str) -> List[Dict]');
    expect(runCode.description).not.toContain('read_file');
    const js = (await run(id, 'code')).started.tools.find((t) => t.name === 'run_code')!;
    expect(js.description).toMatch(/book_hotel\(location: string, \.\.\.preferences: string\[\]\)/);
    expect(js.description).not.toContain('read_file');
    const search = await run(id, 'react-search');
    expect(search.started.tools.map((t) => t.name)).not.toContain('find_flights');
    expect(search.events.some((e) => e.type === 'tool-search')).toBe(true);
    expect(search.finished.validation).toMatchObject({ ok: true });
  });

  it('answers a rounded total, hears it is incorrect, and gives the total as it came', async () => {
    const { finished, events } = await run(
      'm3tooleval/web_browsing/total_price_of_selected_items_after_discount_0',
      'react',
    );
    expect(finished.validation).toMatchObject({ ok: true });
    expect(finished.answer).toMatch(/Answer: 237\.942$/);
    const feedback = events.filter(
      (e): e is Extract<StepEvent, { type: 'model-request' }> =>
        e.type === 'model-request' && e.addedMessages !== undefined,
    );
    expect(feedback).toHaveLength(1);
    expect(feedback[0]!.addedMessages).toEqual([{ role: 'user', content: WRONG_ANSWER_FEEDBACK }]);
    const answers = events
      .filter(
        (e): e is Extract<StepEvent, { type: 'model-response' }> =>
          e.type === 'model-response' && e.toolCalls.length === 0,
      )
      .map((e) => e.text);
    expect(answers.map((a) => /Answer: (.*)$/.exec(a)?.[1])).toEqual(['237.94', '237.942']);
  });
});
