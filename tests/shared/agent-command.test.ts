/** Agent columns as written: checked with errors that say what to write, keyed and labelled as columns. */
import { describe, expect, it } from 'vitest';
import { agentName, agentRecordOf } from '../../shared/agent-command.js';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import { parseVariants, resolveColumns } from '../../shared/variants.js';

const base = { provider: 'simulated', model: 'sim', settings: DEFAULT_SETTINGS };

describe('agent columns in --variants', () => {
  it('reads an agent column and keys it by its position, never as a plain column', () => {
    const v = parseVariants(
      '[{"mode":"react"},{"mode":"agent","agent":{"command":["python3","tutorial/react_agent.py"],"env":{"STYLE":"terse"}}}]',
    );
    const cols = resolveColumns(v, base);
    expect(cols.map((c) => [c.key, c.label])).toEqual([
      ['react', 'ReAct'],
      ['agent-2', 'Agent · react_agent.py'],
    ]);
    // The record keeps the command and the env names, never the values.
    expect(cols[1]!.agent).toEqual({ command: ['python3', 'tutorial/react_agent.py'], envNames: ['STYLE'] });
    expect(JSON.stringify(cols)).not.toContain('terse');
  });

  it('says what to write when the agent is missing, misplaced or malformed', () => {
    expect(() => parseVariants([{ mode: 'agent' }])).toThrow(
      /variants\.1\.agent: is needed with mode "agent": \{"command": \["python3", "my_agent\.py"\]\}/,
    );
    expect(() => parseVariants([{ mode: 'react', agent: { command: ['x'] } }])).toThrow(
      /agent: belongs to mode "agent" only/,
    );
    expect(() => parseVariants([{ mode: 'agent', agent: { command: [] } }])).toThrow(
      /agent\.command: must name a program/,
    );
    expect(() => parseVariants([{ mode: 'agent', agent: { command: 'python3 a.py' } }])).toThrow(
      /agent\.command: must be an array of words/,
    );
    expect(() =>
      parseVariants([{ mode: 'agent', agent: { command: ['a'], env: { OPENAI_API_KEY: 'sk-x' } } }]),
    ).toThrow(/OPENAI_API_KEY is set by Parallax/);
    expect(() => parseVariants([{ mode: 'agent', agent: { command: ['a'], env: { 'A B': 'x' } } }])).toThrow(
      /"A B" is not a variable name/,
    );
    expect(() => parseVariants([{ mode: 'agent', agent: { command: ['a'], shell: true } }])).toThrow(
      /Invalid variant 1/,
    );
  });

  it('tells two agents apart by their command; the same command twice is refused', () => {
    const two = parseVariants([
      { mode: 'agent', agent: { command: ['python3', 'a.py'] } },
      { mode: 'agent', agent: { command: ['python3', 'b.py'] } },
    ]);
    expect(resolveColumns(two, base).map((c) => c.label)).toEqual(['Agent · a.py', 'Agent · b.py']);
    const twins = parseVariants([
      { mode: 'agent', agent: { command: ['python3', 'a.py'] } },
      { mode: 'agent', agent: { command: ['python3', 'a.py'] } },
    ]);
    expect(() => resolveColumns(twins, base)).toThrow(/Variants 1 and 2 are the same column/);
  });

  it('names a program by its script, else by itself', () => {
    expect(agentName({ command: ['node', '--enable-source-maps', 'dist/agent.mjs'] })).toBe('agent.mjs');
    expect(agentName({ command: ['/opt/bin/my-agent', '--fast'] })).toBe('my-agent');
    expect(agentRecordOf({ command: ['x'], timeoutMs: 5000 })).toEqual({ command: ['x'], timeoutMs: 5000 });
  });
});
