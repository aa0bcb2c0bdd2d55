import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../../electron/suite/load-suite.js';

describe('loadSuite', () => {
  it('reads YAML and JSON and resolves fixture folders against the suite file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-suite-'));
    await mkdir(join(dir, 'files'));
    await writeFile(join(dir, 's.yml'), 'name: s\ntasks:\n  - builtin: calc\n  - id: t\n    text: hello\n    fixture: files\n    validator:\n      regex: "^h"\n');
    const yaml = await loadSuite(join(dir, 's.yml'));
    expect(yaml.tasks.map((t) => t.id)).toEqual(['calc', 't']);
    expect(yaml.fixtures.get('t')).toBe(join(dir, 'files'));
    await writeFile(join(dir, 's.json'), JSON.stringify({ name: 's', tasks: [{ id: 't', text: 'x' }] }));
    expect((await loadSuite(join(dir, 's.json'))).source).toBe(join(dir, 's.json'));
    expect((await loadSuite('builtin')).name).toBe('builtin');
  });

  it('says what is wrong: missing file, bad extension, bad syntax, missing fixture folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-suite-'));
    await expect(loadSuite(join(dir, 'none.yaml'))).rejects.toThrow(/Cannot read the suite file .*none\.yaml: it does not exist/);
    await expect(loadSuite(join(dir, 'suite.txt'))).rejects.toThrow(/A suite is "builtin" or a \.json, \.yaml or \.yml file/);
    await writeFile(join(dir, 'bad.json'), '{"name": ');
    await expect(loadSuite(join(dir, 'bad.json'))).rejects.toThrow(/is not valid JSON: .*Fix its syntax/);
    await writeFile(join(dir, 'fx.yaml'), 'name: s\ntasks:\n  - {id: t, text: x, fixture: nowhere}\n');
    await expect(loadSuite(join(dir, 'fx.yaml'))).rejects.toThrow(/tasks\[0\] \(t\)\.fixture: .*nowhere is not a folder; give a folder relative to/);
  });
});
