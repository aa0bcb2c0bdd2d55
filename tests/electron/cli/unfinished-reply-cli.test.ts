/**
 * A final reply cut short or empty on the CLI's comparison surfaces (tests/helpers/unfinished-replies.ts: ReAct
 * answers; Code Mode's final reply is cut at the token limit in the middle of a right-looking answer that names
 * "alpha"; ReAct (text)'s is empty): `parallax compare` names each run's outcome in its own words and the result
 * goes to the run that answered; `parallax suite run` with a validator the cut fragment would pass judges only
 * answers, so the cut run fails and the leaderboard ranks the answering mode first. The same comparison with both
 * final replies filtered after most of an answer (Azure content_filter, Gemini RECITATION after "Final Answer:"):
 * refused on every line, never judged, never passed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliReplay, KEY_VAR } from '../../helpers/cli-replay.js';
import { startReplayServer } from '../../helpers/replay-server.js';
import { CUT, filteredScript, unfinishedScript } from '../../helpers/unfinished-replies.js';
import type { RecordedRequest, ReplayReply } from '../../helpers/replay-server.js';
import { TASK, WORKSPACE_FILES } from '../../helpers/wire-shapes.js';

const { exec } = cliReplay('sk-unfinished-cli-2b3c4d');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function setUp(script: (req: RecordedRequest) => ReplayReply = unfinishedScript) {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-unfinished-'));
  dirs.push(dir);
  const ws = join(dir, 'ws');
  await mkdir(ws);
  for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(ws, f), text);
  const server = await startReplayServer(script);
  const env = { PARALLAX_DATA_DIR: join(dir, 'data') };
  const provider = ['--base-url', server.url, '--model', 'replay', '--api-key-env', KEY_VAR];
  return { dir, ws, server, env, provider };
}

describe('a final reply cut short or empty on the CLI', () => {
  it("parallax compare: each run in its outcome's words, the result to the run that answered", async () => {
    const { ws, server, env, provider } = await setUp();
    try {
      const r = await exec(
        ['compare', '--task', TASK, '--workspace', ws, ...provider, '--modes', 'react,code,react-text'],
        { env },
      );
      // The step lines never call the last reply an answer; the table and the result give each run's outcome.
      expect(r.stdout).toMatch(/\[Code Mode\s*\]\s+2\s.*\(cut short at the token limit: not an answer\)/);
      expect(r.stdout).toMatch(/\[ReAct \(text\)\]\s+2\s.*\(empty reply: not an answer\)/);
      expect(r.stdout).not.toMatch(/\[(Code Mode|ReAct \(text\))\s*\]\s+2\s.*\(answer\)/);
      expect(r.stdout).toMatch(/^Status\s+answered\s+truncated\s+empty\s*$/m);
      expect(r.stdout).toMatch(/\[Code Mode\s*\] truncated after 2 steps .* token limit before it was finished/);
      expect(r.stdout).toMatch(/^Fewest tokens: ReAct — /m);
      expect(r.stdout).toMatch(
        /Code Mode \([\d,]+ tokens\) is left out: its final reply was cut short at the token limit/,
      );
      expect(r.stdout).not.toMatch(/Code Mode used the fewest tokens|ReAct \(text\) used the fewest tokens/);
      // Only ReAct's answer is printed as one; the cut fragment is not.
      expect(r.stdout).not.toMatch(/(Code Mode|ReAct \(text\)) answered/);
      // The fragment is printed only as the start of ReAct's whole answer.
      expect(r.stdout.split(CUT).length - 1).toBe(r.stdout.split(`${CUT}olds "beta" twice.`).length - 1);
      const json = await exec(
        ['compare', '--task', TASK, '--workspace', ws, ...provider, '--modes', 'react,code,react-text', '--json'],
        { env },
      );
      const out = JSON.parse(json.stdout) as {
        runs: { mode: string; status: string; answer?: string }[];
        result?: { winner: { key: string } | null };
      };
      expect(out.runs.map((x) => [x.mode, x.status])).toEqual([
        ['react', 'answered'],
        ['code', 'truncated'],
        ['react-text', 'empty'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('parallax suite run: only answers are judged, so the cut fragment that names alpha fails', async () => {
    const { dir, ws, server, env, provider } = await setUp();
    try {
      const file = join(dir, 'suite.yaml');
      await writeFile(
        file,
        [
          'name: unfinished',
          'tasks:',
          '  - id: files',
          `    text: ${JSON.stringify(TASK)}`,
          `    fixture: ${ws}`,
          '    validator: {regex: "alpha"}',
          '',
        ].join('\n'),
      );
      const r = await exec(['suite', 'run', file, '--modes', 'react,code,react-text', ...provider, '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as {
        overall: { mode: string; passed: number; trials: number }[];
        tasks: { runs: { mode: string; status: string; answer: string; validation: unknown }[] }[];
      };
      expect(
        out.tasks[0]!.runs.map((x) => [
          x.mode,
          x.status,
          x.answer === '' ? '' : 'answer',
          x.validation === null ? null : 'judged',
        ]),
      ).toEqual([
        ['react', 'answered', 'answer', 'judged'],
        ['code', 'truncated', '', null],
        ['react-text', 'empty', '', null],
      ]);
      const passed = Object.fromEntries(out.overall.map((m) => [m.mode, m.passed]));
      expect(passed).toEqual({ react: 1, code: 0, 'react-text': 0 });
      expect(out.overall[0]!.mode).toBe('react');
    } finally {
      await server.close();
    }
  });

  it("refused or filtered final replies: refused in compare's lines, table and result, never judged by suite run", async () => {
    const { dir, ws, server, env, provider } = await setUp(filteredScript);
    try {
      const r = await exec(
        ['compare', '--task', TASK, '--workspace', ws, ...provider, '--modes', 'react,code,react-text'],
        { env },
      );
      for (const label of ['Code Mode', 'ReAct \\(text\\)'])
        expect(r.stdout).toMatch(
          new RegExp(`\\[${label}\\s*\\]\\s+2\\s.*\\(refused or filtered by the provider: not an answer\\)`),
        );
      expect(r.stdout).not.toMatch(/\[(Code Mode|ReAct \(text\))\s*\]\s+2\s.*\(answer\)/);
      expect(r.stdout).toMatch(/^Status\s+answered\s+refused\s+refused\s*$/m);
      expect(r.stdout).toMatch(/^Fewest tokens: ReAct — /m);
      expect(r.stdout).toMatch(
        /ReAct \(text\) \([\d,]+ tokens\) is left out: the provider refused the reply or filtered it/,
      );
      expect(r.stdout).not.toMatch(/(Code Mode|ReAct \(text\)) answered/);

      const file = join(dir, 'suite.yaml');
      await writeFile(
        file,
        [
          'name: filtered',
          'tasks:',
          '  - id: files',
          `    text: ${JSON.stringify(TASK)}`,
          `    fixture: ${ws}`,
          '    validator: {regex: "alpha"}',
          '',
        ].join('\n'),
      );
      const s = await exec(['suite', 'run', file, '--modes', 'react,code,react-text', ...provider, '--json'], { env });
      expect(s.code, s.stderr).toBe(0);
      const out = JSON.parse(s.stdout) as {
        overall: { mode: string; passed: number }[];
        tasks: { runs: { mode: string; status: string; answer: string; validation: unknown }[] }[];
      };
      expect(
        out.tasks[0]!.runs.map((x) => [x.mode, x.status, x.answer, x.validation === null ? null : 'judged']),
      ).toEqual([
        ['react', 'answered', expect.stringContaining('alpha'), 'judged'],
        ['code', 'refused', '', null],
        ['react-text', 'refused', '', null],
      ]);
      expect(Object.fromEntries(out.overall.map((m) => [m.mode, m.passed]))).toEqual({
        react: 1,
        code: 0,
        'react-text': 0,
      });
    } finally {
      await server.close();
    }
  });
});
