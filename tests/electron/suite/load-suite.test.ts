import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../../electron/suite/load-suite.js';

describe('loadSuite', () => {
  it('refuses a regex the linear-time engine cannot run (a backreference, lookahead), naming the task and what to write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-suite-re2-'));
    await writeFile(
      join(dir, 's.json'),
      JSON.stringify({
        name: 's',
        tasks: [
          { id: 'twice', text: 'x', validator: { regex: '(a)\\1' } },
          { id: 'ahead', text: 'y', validator: { regex: '^(?=\\d)' } },
        ],
      }),
    );
    const error = await loadSuite(join(dir, 's.json')).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error).toMatch(
      /tasks\[0\] \(twice\)\.validator\.regex: invalid escape sequence: `\\1`\. Suite regexes run in a linear-time engine \(RE2\), which has no backreferences or lookaround/,
    );
    expect(error).toMatch(/tasks\[1\] \(ahead\)\.validator\.regex: invalid or unsupported Perl syntax: `\(\?=`/);
  });

  it('reads YAML and JSON and resolves fixture folders against the suite file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-suite-'));
    await mkdir(join(dir, 'files'));
    await writeFile(
      join(dir, 's.yml'),
      'name: s\ntasks:\n  - builtin: calc\n  - id: t\n    text: hello\n    fixture: files\n    validator:\n      regex: "^h"\n',
    );
    const yaml = await loadSuite(join(dir, 's.yml'));
    expect(yaml.tasks.map((t) => t.id)).toEqual(['calc', 't']);
    expect(yaml.fixtures.get('t')).toBe(join(dir, 'files'));
    await writeFile(join(dir, 's.json'), JSON.stringify({ name: 's', tasks: [{ id: 't', text: 'x' }] }));
    expect((await loadSuite(join(dir, 's.json'))).source).toBe(join(dir, 's.json'));
    expect((await loadSuite('builtin')).name).toBe('builtin');
  });

  it('says what is wrong: missing file, bad extension, bad syntax, missing fixture folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-suite-'));
    await expect(loadSuite(join(dir, 'none.yaml'))).rejects.toThrow(
      /Cannot read the suite file .*none\.yaml: it does not exist/,
    );
    await expect(loadSuite(join(dir, 'suite.txt'))).rejects.toThrow(
      /A suite is "builtin", "history", a task set \(m3tooleval, m3tooleval:<domain>\) or a \.json, \.yaml or \.yml file/,
    );
    await expect(loadSuite('m3tooleval:no_such_domain')).rejects.toThrow(/no_such_domain/);
    await writeFile(join(dir, 'bad.json'), '{"name": ');
    await expect(loadSuite(join(dir, 'bad.json'))).rejects.toThrow(/is not valid JSON: .*Fix its syntax/);
    await writeFile(join(dir, 'fx.yaml'), 'name: s\ntasks:\n  - {id: t, text: x, fixture: nowhere}\n');
    await expect(loadSuite(join(dir, 'fx.yaml'))).rejects.toThrow(
      /tasks\[0\] \(t\)\.fixture: .*nowhere is not a folder; give a folder relative to/,
    );
  });

  it("an alias bomb (8 levels of 9 aliases, 9^8 leaves) under a validator's equals is refused, naming the file and the key", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-suite-'));
    const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const lines = ['name: bomb', `a: &a [${Array(9).fill('"x"').join(',')}]`];
    for (let i = 1; i < levels.length; i++)
      lines.push(
        `${levels[i]}: &${levels[i]} [${Array(9)
          .fill(`*${levels[i - 1]}`)
          .join(',')}]`,
      );
    lines.push('tasks:', '  - id: t', '    text: x', '    validator: { equals: *h }');
    const file = join(dir, 'bomb.yaml');
    await writeFile(file, lines.join('\n') + '\n');
    await expect(loadSuite(file)).rejects.toThrow(
      /The suite file .*bomb\.yaml is refused: with its YAML aliases expanded, the value of f grows to 597,871 values, more than the 100,000/,
    );

    // The same bomb defined inside the validator: the key named is the path to it.
    const inline = [
      'name: bomb',
      'tasks:',
      '  - id: t',
      '    text: x',
      '    validator:',
      '      equals:',
      `        - &a [${Array(9).fill('"x"').join(',')}]`,
    ];
    for (let i = 1; i < levels.length; i++)
      inline.push(
        `        - &${levels[i]} [${Array(9)
          .fill(`*${levels[i - 1]}`)
          .join(',')}]`,
      );
    await writeFile(file, inline.join('\n') + '\n');
    await expect(loadSuite(file)).rejects.toThrow(/the value of tasks\[0\]\.validator\.equals\[5\] grows/);
  });

  it('a few aliases that stay small are fine', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-suite-'));
    await writeFile(
      join(dir, 'ok.yaml'),
      'name: s\ntasks:\n  - {id: a, text: x, validator: &v { regex: "^h" }}\n  - {id: b, text: y, validator: *v}\n',
    );
    expect((await loadSuite(join(dir, 'ok.yaml'))).tasks).toHaveLength(2);
  });
});
