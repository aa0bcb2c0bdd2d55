/**
 * The simulated model's M3ToolEval programs in the real sandboxes, with the ported tools as the catalog: QuickJS
 * for Code Mode and Pyodide for Code Mode (Python), every task, under the harness's protocol (a wrong answer is
 * told so and the model goes on, up to 10 turns). Python programs get the tools' results as Python
 * values (a tuple, a dict in its order, 7500.0), so they answer the tasks whose expected output is such a value,
 * which JavaScript's prints miss; variadic tools take positional arguments in both languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programText, runProgram, Sandbox } from '../../../../electron/engine/sandbox/index.js';
import { PySandbox } from '../../../../electron/engine/sandbox/python/py-sandbox.js';
import { M3_TASKS, type M3Task } from '../../../../electron/tasks/m3tooleval/m3-tasks.js';
import { m3ToolDefinitions } from '../../../../electron/tasks/m3tooleval/tool-definitions.js';
import { scoreAnswer } from '../../../../electron/tasks/m3tooleval/score.js';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { playCode } from './sim-driver.js';

const LIMITS = { timeoutMs: 30_000, memoryMb: 128, outputChars: 4000, maxToolCalls: 50 };
const WORDS_DISAGREE = [
  'message_decoder/longest_decoded_string',
  'trade_calculator/estimate_final_value',
  'travel_itinerary_planning/plan_trip_to_0',
];
const PYTHON_LITERALS = [
  'cryptobotanists_plant_dna_sequencer/reverse_transcribe_palindrome_check',
  'cryptobotanists_plant_dna_sequencer/find_most_common_nucleotide_combined_sequence',
  'trade_calculator/fluctuating_conversion_rates_impact',
  'trade_calculator/seasonal_price_fluctuation_impact',
  'trade_calculator/dynamic_pricing_strategy',
  'trade_calculator/long_term_vs_short_term_trade_decisions',
];

/** Every task under the harness's protocol; the wrong ones, and the most turns a task took. */
async function playAll(
  language: 'javascript' | 'python',
  sandbox: Sandbox | PySandbox,
): Promise<{ wrong: string[]; maxTurns: number }> {
  const wrong: string[] = [];
  let maxTurns = 0;
  for (const task of M3_TASKS) {
    const tools = m3ToolDefinitions(task.domain.tools);
    const run = async (code: string) =>
      programText(
        await runProgram(code, {
          tools,
          hiddenTools: [],
          language,
          sandbox,
          returnTypes: true,
          limits: LIMITS,
          ctx: { workspace: '/nonexistent', settings: DEFAULT_SETTINGS, signal: new AbortController().signal },
        }),
      );
    const played = await playCode(task as M3Task, language, run);
    maxTurns = Math.max(maxTurns, played.turns);
    if (!scoreAnswer(played.answer, task.expected).ok) wrong.push(task.name);
  }
  return { wrong: wrong.sort(), maxTurns };
}

describe("the simulated model's M3ToolEval programs in the sandboxes", () => {
  let js: Sandbox;
  let py: PySandbox;
  beforeAll(async () => {
    js = new Sandbox();
    py = new PySandbox();
    await Promise.all([js.warmUp(), py.warmUp()]);
  });
  afterAll(() => {
    js.dispose();
    py.dispose();
  });

  it('in JavaScript (QuickJS) answer all but the tasks whose answer is a Python literal or whose words disagree', async () => {
    const { wrong, maxTurns } = await playAll('javascript', js);
    expect(wrong).toEqual([...WORDS_DISAGREE, ...PYTHON_LITERALS].sort());
    expect(maxTurns).toBe(10);
  });

  it('in Python (Pyodide) answer the Python literals too: tuples, dicts and floats arrive as Python values', async () => {
    const { wrong, maxTurns } = await playAll('python', py);
    // Pyodide is Python 3.14, whose sum() of floats is compensated (since 3.12): 171.06 + 105.52 + 103.84 sums
    // to 380.42, where the original's Python gave the expected 380.41999999999996.
    expect(wrong).toEqual([...WORDS_DISAGREE, 'web_browsing/total_price_of_selected_items_2'].sort());
    expect(maxTurns).toBe(10);
  });
});
