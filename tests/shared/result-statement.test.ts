/** The result statement: who won among passing runs, why from prompt parts and steps, what was left out, how far one run or several trials go. */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../shared/summary.js';
import type { TrialRun } from '../../shared/trial-differences.js';
import { resultLines, resultStatement } from '../../shared/result-statement.js';
import { runOutcome } from '../../shared/run-outcome.js';
import { aggregateByColumn, ranOfAggregate } from '../../shared/summary.js';
import { differencesByMode } from '../../shared/trial-differences.js';
import { MODE_LABELS, type ModeId } from '../../shared/modes.js';

interface Opts {
  status?: string;
  ok?: boolean | null;
  steps?: number;
  toolCalls?: number;
  programs?: number;
  tools?: number;
  completion?: number;
  trial?: number;
  error?: string;
}

/** A run whose every step carries `toolsPerStep` tokens of tool definitions and `resultsPerStep` of results. */
function run(mode: ModeId, prompt: number, o: Opts = {}): TrialRun {
  const steps = o.steps ?? 3;
  const per = Math.floor(prompt / steps);
  const perStep = Array.from({ length: steps }, (_, i) => ({
    step: i + 1,
    prompt: per,
    completion: 10,
    cached: 0,
    reasoning: 0,
    attempts: 1,
    latencyMs: 1,
    toolCalls: 1,
    usageMissing: false,
    usageSource: 'reported',
    promptComposition: {
      system: 50,
      tools: mode === 'react' ? per - 150 : 100,
      task: 20,
      assistant: 30,
      toolResults: mode === 'react' ? 50 : per - 200,
      other: 0,
    },
  }));
  const completion = o.completion ?? 100;
  const summary = {
    runId: `${mode}-${o.trial ?? 1}`,
    mode,
    column: { key: mode, label: MODE_LABELS[mode] },
    task: null,
    provider: null,
    status: o.status ?? 'answered',
    answer: 'x',
    error: o.error ?? null,
    validation: o.ok === null ? null : { ok: o.ok ?? true, detail: o.ok === false ? 'Expected 42. Found 41.' : 'ok' },
    totals: {
      steps,
      requests: steps,
      prompt: per * steps,
      completion,
      cached: 0,
      reasoning: 0,
      total: per * steps + completion,
      toolCalls: o.toolCalls ?? steps - 1,
      wallMs: 10,
      approvalWaitMs: 0,
      startupMs: 0,
    },
    perStep,
    firstRequestAt: null,
    firstRequestPrompt: per,
    usageSource: 'reported',
    cost: { usd: null, estimated: false },
    programToolCalls: o.programs ?? 0,
    workerStart: null,
    toolsOffered: o.tools ?? (mode === 'react' ? 8 : 1),
  } as unknown as RunSummary;
  return { trial: o.trial ?? 1, summary };
}

describe('resultStatement, one run each', () => {
  it('names the winner, the margin, that every run passed, why from the tool definitions and steps, and that one run is noise', () => {
    const s = resultStatement({
      runs: [
        run('react', 6000, { steps: 5, toolCalls: 4 }),
        run('code', 1800, { steps: 3, toolCalls: 2, programs: 8, completion: 300 }),
      ],
      simulated: true,
    });
    expect(s.outcome).toBe('won');
    expect(s.winner?.key).toBe('code');
    expect(s.headline).toBe(
      "Code Mode used the fewest tokens: 2,100 total tokens (simulated) against ReAct's 6,100, 66 % fewer.",
    );
    expect(s.among).toBe('Every run passed validation.');
    expect(s.why[0]).toBe(
      "ReAct sent its 8 tool definitions with each of its 5 requests: 5,250 of its 6,000 prompt tokens; Code Mode's tool definitions took 300 of 1,800.",
    );
    expect(s.why).toContain(
      'ReAct took 5 steps with 4 tool calls; Code Mode took 3 steps, its 2 programs making 8 tool calls inside.',
    );
    expect(
      s.why.some((w) =>
        w.startsWith('Code Mode wrote more completion tokens (a program is longer than a tool call), 300 against 100'),
      ),
    ).toBe(true);
    expect(s.evidence).toMatch(
      /^One run each: a single run cannot separate a small difference from noise; run 5 trials/,
    );
    expect(s.suggestTrials).toBe(5);
  });

  it('a failed answer is left out with its reason, however few tokens it used, and "among" says which runs competed', () => {
    const s = resultStatement({
      runs: [run('react', 6000), run('code', 900, { ok: false }), run('hybrid', 3000)],
      simulated: false,
    });
    expect(s.winner?.key).toBe('hybrid');
    expect(s.among).toBe('Among the runs that passed validation: ReAct and Hybrid.');
    expect(s.leftOut).toEqual(['Code Mode (1,000 tokens) is left out: its answer failed validation (Expected 42).']);
    expect(s.headline).not.toContain('(simulated)');
  });

  it('less than 5 % apart is about even, with no winner named as a win and no reasons', () => {
    const s = resultStatement({ runs: [run('react', 3000), run('code', 2970)], simulated: true });
    expect(s.outcome).toBe('close');
    expect(s.headline).toBe(
      'Code Mode and ReAct used about as many tokens: 3,070 and 3,100 total tokens (simulated), 1.0 % apart.',
    );
    expect(s.evidence).toContain('cannot tell a 1.0 % difference from noise');
    expect(s.why).toEqual([]);
  });

  it('no passing run: no result, every run left out with its own reason; an unknown status is a failure', () => {
    const s = resultStatement({
      runs: [run('react', 3000, { status: 'max-steps' }), run('code', 900, { status: 'refused' })],
      simulated: true,
    });
    expect(s.outcome).toBe('none');
    expect(s.winner).toBeNull();
    expect(s.headline).toBe('No result: no run answered.');
    expect(s.leftOut).toEqual([
      'ReAct (3,100 tokens) is left out: it hit the step limit after 3 steps without an answer.',
      'Code Mode (1,000 tokens) is left out: the provider refused the reply or filtered it, so what it wrote is not an answer.',
    ]);
    expect(runOutcome(run('code', 1, { status: 'refused' }).summary)).toMatchObject({
      passed: false,
      tone: 'fail',
      word: 'Refused',
    });
    expect(runOutcome({ ...run('code', 1).summary, status: 'some-later-status' as never })).toMatchObject({
      passed: false,
      tone: 'fail',
      word: 'some-later-status',
    });
  });

  it('a final reply cut short or empty is no answer: left out with its reason, never the cheaper winner', () => {
    const s = resultStatement({
      runs: [
        run('react', 3000),
        run('code', 900, { status: 'truncated', error: 'The reply reached its token limit.' }),
        run('react-text', 800, { status: 'empty' }),
      ],
      simulated: true,
    });
    // The only run that passed is the costly one: the cheaper ones are no answers, so they win nothing.
    expect(s.winner?.key).toBe('react');
    expect(s.headline).not.toMatch(/Code Mode|ReAct \(text\)/);
    expect(s.leftOut).toEqual([
      'Code Mode (1,000 tokens) is left out: its final reply was cut short at the token limit, so its fragment is not an answer.',
      'ReAct (text) (898 tokens) is left out: its final reply was empty: no text and no tool call.',
    ]);
    expect(runOutcome(run('code', 1, { status: 'truncated' }).summary)).toMatchObject({
      passed: false,
      tone: 'fail',
      word: 'Cut short',
    });
    expect(runOutcome(run('code', 1, { status: 'empty' }).summary)).toMatchObject({
      passed: false,
      tone: 'fail',
      word: 'Empty reply',
    });
  });

  it('only one passing run: said so, not a win by comparison', () => {
    const s = resultStatement({
      runs: [run('react', 3000, { status: 'error', error: 'HTTP 500. Try again.' }), run('code', 900)],
      simulated: true,
    });
    expect(s.outcome).toBe('only');
    expect(s.headline).toBe('Only Code Mode passed, with 1,000 tokens (simulated): no other run to compare it with.');
    expect(s.leftOut).toEqual(['ReAct (3,100 tokens) is left out: it stopped on an error (HTTP 500).']);
  });

  it('a run still going: no result yet', () => {
    expect(
      resultStatement({ runs: [run('react', 3000, { status: 'running' }), run('code', 900)], simulated: true }).outcome,
    ).toBe('running');
  });
});

describe('resultStatement over trials', () => {
  const rounds = (react: number[], code: number[]) =>
    react.flatMap((p, i) => [
      run('react', p, { trial: i + 1, steps: 5 }),
      run('code', code[i]!, { trial: i + 1, programs: 4 }),
    ]);

  it('a clear difference: the winner with its mean, the test sentence as evidence, reasons on average', () => {
    const s = resultStatement({
      runs: rounds([5000, 5200, 4800, 5100, 4900, 5050], [1900, 2000, 1850, 1950, 2050, 1990]),
      simulated: true,
    });
    expect(s.outcome).toBe('won');
    expect(s.headline).toMatch(
      /^Code Mode used the fewest tokens: an average of [\d,.]+ total tokens \(simulated\) against ReAct's [\d,.]+, \d+ % fewer\.$/,
    );
    expect(s.among).toBe('Over 6 trials; every run passed validation.');
    expect(s.evidence).toMatch(
      /^Code Mode used \d+ % ± \d+ % fewer tokens in all than ReAct \(p = 0\.031, 6 paired trials\)\.$/,
    );
    expect(s.why[0]).toContain('on average');
    expect(s.suggestTrials).toBeNull();
  });

  it('all one way in too few trials: says the trials are too few and offers more', () => {
    const s = resultStatement({ runs: rounds([5000, 5200, 4800], [1900, 2000, 1850]), simulated: true });
    expect(s.outcome).toBe('unclear');
    expect(s.headline).toContain('in every trial');
    expect(s.headline).toContain('3 trials are too few for a clear test');
    // The advice is more trials than were run: the most a comparison can have, never the 5 it may already have had.
    expect(s.suggestTrials).toBe(10);
    expect(s.evidence).toMatch(/Run 10 trials to settle it\.$/);
    const five = resultStatement({
      runs: rounds([5000, 5200, 4800, 5100, 4900], [1900, 2000, 1850, 1950, 2050]),
      simulated: true,
    });
    expect([five.outcome, five.suggestTrials]).toEqual(['unclear', 10]);
  });

  it('ten trials that cannot settle it: no advice, since no comparison can have more', () => {
    const react = [5000, 1000, 5200, 900, 4800, 1100, 5100, 950, 4900, 1050];
    const code = [1900, 2000, 1850, 1950, 2050, 1990, 2010, 1960, 1940, 2020];
    const s = resultStatement({ runs: rounds(react, code), simulated: true });
    expect(s.outcome).toBe('unclear');
    expect(s.suggestTrials).toBeNull();
    expect(s.evidence).not.toContain('Run 10 trials');
  });

  it('a 10-trial comparison cancelled after 3 rounds, one run stopped mid-way: neutral notes, one trial count, the planned trials advised', () => {
    const ran = rounds([5000, 5200, 4800], [1900, 2000, 1850]);
    // Round 3: ReAct answered, Code Mode was cancelled while it ran; rounds 4–10 never began.
    const runs = [
      ...ran.filter((r) => !(r.trial === 3 && r.summary.mode === 'code')),
      run('code', 400, { trial: 3, status: 'cancelled', steps: 1 }),
    ];
    for (let t = 4; t <= 10; t++)
      runs.push(
        run('react', 0, { trial: t, status: 'cancelled', steps: 0 }),
        run('code', 0, { trial: t, status: 'cancelled', steps: 0 }),
      );
    const s = resultStatement({ runs, simulated: true });
    expect(s.leftOut).toEqual([]);
    expect(s.notes).toEqual([
      "Code Mode's run of trial 3 was cancelled while it ran: it is in no figure or test.",
      'Cancelled after 3 of 10 trials: the other 7 trials never started, so no figure counts them.',
    ]);
    // "Over 3 trials" counts ReAct's three ended runs; the test pairs the two rounds both columns ended, and says so.
    expect(s.among).toBe('Over 3 trials; every run passed validation.');
    expect(s.evidence).toContain('2 paired trials');
    expect(s.suggestTrials).toBe(10);
    expect(resultLines(s)).toEqual(expect.arrayContaining([...s.notes]));
  });

  it('a column that never passed is left out; one that passed some trials is named with its count; runs that never started are said to have no figures', () => {
    const runs = rounds([5000, 5200, 4800], [1900, 2000, 1850]);
    const failing = runs.map((r) => (r.summary.mode === 'code' ? run('code', 1900, { trial: r.trial, ok: false }) : r));
    const s1 = resultStatement({ runs: failing, simulated: true });
    expect(s1.outcome).toBe('only');
    expect(s1.leftOut[0]).toBe(
      'Code Mode is left out: none of its 3 runs passed (its answer failed validation (Expected 42)).',
    );
    const cancelled = [
      ...runs.slice(0, 4),
      run('react', 0, { trial: 3, status: 'cancelled', steps: 0 }),
      run('code', 0, { trial: 3, status: 'cancelled', steps: 0 }),
    ];
    const s2 = resultStatement({ runs: cancelled, simulated: true });
    expect(s2.notes).toContain(
      'Cancelled after 2 of 3 trials: the other 1 trial never started, so no figure counts it.',
    );
    expect(s2.leftOut).toEqual([]);
    expect(resultLines(s2)[0]).toBe(s2.headline);
  });

  it('a comparison cancelled in its first round: no figures, no test, and the rounds that never began said apart from the one that ran', () => {
    const stopped = (mode: ModeId) => {
      const r = run(mode, 900, { trial: 1, status: 'cancelled', steps: 1 });
      return r;
    };
    const never = (mode: ModeId, trial: number) => run(mode, 0, { trial, status: 'cancelled', steps: 0 });
    const runs = [
      stopped('react'),
      stopped('code'),
      never('react', 2),
      never('code', 2),
      never('react', 3),
      never('code', 3),
    ];
    const s = resultStatement({ runs, simulated: true });
    expect(s.outcome).toBe('none');
    expect(s.evidence).toBeNull();
    // A cancel is no failure: said in notes, none in the colour of failure.
    expect(s.leftOut).toEqual([]);
    expect(s.notes).toEqual([
      'ReAct (1,000 tokens) is left out: it was cancelled after 1 step.',
      'Code Mode (1,000 tokens) is left out: it was cancelled after 1 step.',
      'Cancelled after 1 of 3 trials: the other 2 trials never started, so no figure counts them.',
    ]);
    // The averages count only the round that ran (a pass rate of 0 of 1), and one run a side is no test.
    const [react] = aggregateByColumn(runs.map((r) => r.summary));
    expect([react!.trials, ranOfAggregate(react!), react!.neverStarted, react!.passRate?.n]).toEqual([3, 1, 2, 1]);
    expect(differencesByMode(runs).find((d) => d.figure === 'passRate')).toBeUndefined();
    const none = resultStatement({ runs: [never('react', 1), never('code', 1)], simulated: true });
    expect(aggregateByColumn([never('react', 1).summary])[0]!.passRate).toBeNull();
    expect(differencesByMode([never('react', 1), never('code', 1)])).toEqual([]);
    expect(none.headline).toBe('No result: the comparison was cancelled before any run started.');
    expect(none.notes).toEqual([
      'ReAct is left out: its run was cancelled before it started.',
      'Code Mode is left out: its run was cancelled before it started.',
    ]);
  });
});
