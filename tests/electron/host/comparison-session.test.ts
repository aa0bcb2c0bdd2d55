import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { parseRunLog } from '../../../electron/host/run-log-reader.js';
import { forkLauncher, type WorkerExit } from '../../../electron/host/launcher.js';
import { eventsOf, startSession, syntheticLauncher, waitFor } from './session-helpers.js';

const finishedOf = (events: readonly StepEvent[]) =>
  events.find((e): e is RunFinishedEvent => e.type === 'run-finished');

describe('ComparisonSession with real worker processes', () => {
  it('fans in every event of both runs in seq order and writes each run to its JSONL', async () => {
    const rig = await startSession(syntheticLauncher({}, ['--events', '900', '--payload', '50']));
    await rig.session.done;
    for (const { runId } of rig.meta.runs) {
      const events = eventsOf(rig.emitted, runId);
      expect(events).toHaveLength(900);
      expect(events.map((e) => e.seq)).toEqual([...Array(900).keys()]);
      expect(finishedOf(events)?.status).toBe('answered');
      const text = await readFile(rig.store.runLogPath(rig.meta.id, runId), 'utf8');
      expect(parseRunLog(text, runId, 'f').events).toEqual(events);
    }
    expect(rig.warnings).toEqual([]);
  });

  it('kill -9 of one worker marks only that run crashed, keeps what it sent, and the other run finishes', async () => {
    const rig = await startSession(
      syntheticLauncher({ react: ['--events', '40', '--then', 'hang'], code: ['--events', '60', '--then', 'hang'] }),
    );
    const [react, code] = rig.session.runs;
    await waitFor(
      () => eventsOf(rig.emitted, react.spec.runId).length >= 40 && eventsOf(rig.emitted, code.spec.runId).length >= 60,
      30_000,
      'events',
    );
    const pid = (react as unknown as { handle: { pid: number } }).handle.pid;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => react.done, 10_000, 'the killed run to end');
    expect(code.done).toBe(false);
    code.cancel(); // the survivor is still running: end it the normal way
    await rig.session.done;

    const killed = eventsOf(rig.emitted, react.spec.runId);
    const fin = finishedOf(killed)!;
    expect(fin.status).toBe('crashed');
    expect(fin.seq).toBe(40);
    expect(killed).toHaveLength(41);
    expect(fin.error).toMatch(/SIGKILL/);
    expect(fin.error).toMatch(/40 events received before it are kept/);
    expect(fin.totals).toEqual(computeTotals(killed));
    const onDisk = parseRunLog(
      await readFile(rig.store.runLogPath(rig.meta.id, react.spec.runId), 'utf8'),
      react.spec.runId,
      'f',
    );
    expect(onDisk.events).toEqual(killed);
    expect(finishedOf(eventsOf(rig.emitted, code.spec.runId))?.status).toBe('cancelled');
  });

  it('cancel stops a worker that ignores it within a second and marks the run cancelled', async () => {
    const exits: WorkerExit[] = [];
    const ignoring = syntheticLauncher({ react: ['--events', '5', '--then', 'ignore-cancel'] });
    const rig = await startSession(
      {
        launch: (o) => {
          const h = ignoring.launch(o);
          h.onExit((e) => exits.push(e));
          return h;
        },
      },
      { modes: ['react'] },
    );
    const [run] = rig.session.runs;
    await waitFor(() => eventsOf(rig.emitted, run.spec.runId).length >= 4, 30_000, 'events');
    run.cancel(); // it ignores the cancel and waits forever: only the kill after the grace can end it
    await waitFor(() => run.done, 30_000, 'cancel');
    expect(exits.map((e) => e.signal)).toEqual(['SIGKILL']);
    const fin = finishedOf(eventsOf(rig.emitted, run.spec.runId))!;
    expect(fin.status).toBe('cancelled');
    expect(fin.error).toMatch(/did not end its run within 700 ms/);
    await rig.session.done;
  });

  it('cancel of a cooperative worker lets it finish its own run as cancelled', async () => {
    const rig = await startSession(syntheticLauncher({ react: ['--events', '5', '--then', 'hang'] }), {
      modes: ['react'],
    });
    const [run] = rig.session.runs;
    await waitFor(() => eventsOf(rig.emitted, run.spec.runId).length >= 4, 30_000, 'events');
    run.cancel();
    await rig.session.done;
    const fin = finishedOf(eventsOf(rig.emitted, run.spec.runId))!;
    expect(fin.status).toBe('cancelled');
    expect(fin.error).toBe('Cancelled by the user.'); // the worker's own event, not the host's
  });

  it('a worker that exits or throws before run-finished ends as crashed with the reason', async () => {
    const rig = await startSession(
      syntheticLauncher({
        react: ['--events', '3', '--then', 'exit-early'],
        code: ['--events', '3', '--then', 'crash'],
      }),
    );
    await rig.session.done;
    const [react, code] = rig.session.runs.map((r) => finishedOf(eventsOf(rig.emitted, r.spec.runId))!);
    expect(react.status).toBe('crashed');
    expect(react.error).toMatch(/exited with code 0/);
    expect(code.status).toBe('crashed');
    expect(code.error).toMatch(/synthetic crash/);
  });

  it('a worker that cannot start still gets a run-started and a crashed run-finished', async () => {
    // A worker entry that does not load: the process starts and exits with code 1 before saying ready.
    const rig = await startSession(forkLauncher({ entry: join(tmpdir(), 'parallax-no-such-worker.js') }), {
      modes: ['code'],
    });
    await rig.session.done;
    const events = rig.emitted;
    expect(events.map((e) => [e.type, e.seq])).toEqual([
      ['run-started', 0],
      ['run-finished', 1],
    ]);
    expect((events[0] as { mode: string }).mode).toBe('code');
    expect((events[1] as RunFinishedEvent).status).toBe('crashed');
    expect((events[1] as RunFinishedEvent).error).toMatch(/exited with code 1/);
  });

  it("never puts the API key in the worker's argv or environment", async () => {
    const key = 'sk-test-' + Math.random().toString(36).slice(2);
    const rig = await startSession(syntheticLauncher({ react: ['--events', '3', '--then', 'hang'] }), {
      modes: ['react'],
      apiKey: key,
      env: { ...process.env, OPENAI_API_KEY: key, OTHER: `x${key}y` },
    });
    const [run] = rig.session.runs;
    await waitFor(() => eventsOf(rig.emitted, run.spec.runId).length >= 2, 30_000, 'events');
    const pid = (run as unknown as { handle: { pid: number } }).handle.pid;
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    expect(environ).toContain('PATH=');
    expect(environ).not.toContain(key);
    expect(environ).not.toContain('OPENAI_API_KEY=');
    expect(cmdline).not.toContain(key);
    run.cancel();
    await rig.session.done;
  });
});

describe('ComparisonSession when a worker cannot be launched', () => {
  it('records that run as crashed with the reason and runs the others', async () => {
    const good = syntheticLauncher({}, ['--events', '5']);
    const rig = await startSession({
      launch: (o) => {
        if (o.name.endsWith('-react')) throw new Error('spawn EAGAIN');
        return good.launch(o);
      },
    });
    await rig.session.done;
    const [react, code] = rig.session.runs.map((r) => finishedOf(eventsOf(rig.emitted, r.spec.runId))!);
    expect(react.status).toBe('crashed');
    expect(react.error).toMatch(/could not be started: spawn EAGAIN/);
    expect(code.status).toBe('answered');
  });
});
