import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import {
  columnOf,
  columnSlots,
  matrixVariants,
  parseVariants,
  resolveColumns,
  type VariantInput,
} from '../../shared/variants.js';
import { checkComparisonMeta } from '../../shared/comparison-meta-schema.js';

const base = { provider: 'simulated', model: 'sim', settings: DEFAULT_SETTINGS };

describe('parseVariants', () => {
  it('reads the JSON text of an array of columns', () => {
    const v = parseVariants('[{"mode":"code","settings":{"returnTypes":false}},{"mode":"code"}]');
    expect(v).toEqual([{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }]);
  });

  it('names the column and the field of each problem', () => {
    expect(() => parseVariants([{ mode: 'code' }, { mode: 'nope' }])).toThrow(
      /variants\.2\.mode: must be one of react, code/,
    );
    expect(() => parseVariants([{ mode: 'code', modle: 'x' }])).toThrow(/variant 1/);
    expect(() => parseVariants([{ mode: 'react', settings: 5 }])).toThrow(
      /variants\.1\.settings: must be an object of run settings/,
    );
    expect(() => parseVariants('{mode: code}')).toThrow(/not valid JSON/);
    expect(() => parseVariants([])).toThrow(/non-empty array/);
    expect(() => parseVariants(Array.from({ length: 13 }, () => ({ mode: 'react' })))).toThrow(/At most 12/);
  });

  it("takes a column's protocol, openai or anthropic only", () => {
    expect(
      parseVariants([{ mode: 'react', baseUrl: 'https://gw.example/v1', protocol: 'anthropic' }])[0]!.protocol,
    ).toBe('anthropic');
    expect(() => parseVariants([{ mode: 'react', protocol: 'messages' }])).toThrow(
      /variants\.1\.protocol: must be one of openai, anthropic/,
    );
  });
});

describe('resolveColumns', () => {
  it('labels settings variants by the setting that differs, and keeps a plain column keyed by its mode', () => {
    const cols = resolveColumns([{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }], base);
    expect(cols.map((c) => [c.key, c.label])).toEqual([
      ['code-1', 'Code Mode · no return types'],
      ['code', 'Code Mode'],
    ]);
  });

  it("a setting given at the comparison's own value is no difference", () => {
    const cols = resolveColumns(
      [{ mode: 'react', settings: { maxSteps: DEFAULT_SETTINGS.maxSteps } }, { mode: 'code' }],
      base,
    );
    expect(cols.map((c) => [c.key, c.label])).toEqual([
      ['react', 'ReAct'],
      ['code', 'Code Mode'],
    ]);
  });

  it('names the model in every column of a models × modes matrix', () => {
    const cols = resolveColumns(matrixVariants(['sim', 'deepseek-chat'], ['react', 'code']), base);
    expect(cols.map((c) => c.label)).toEqual([
      'ReAct · sim',
      'Code Mode · sim',
      'ReAct · deepseek-chat',
      'Code Mode · deepseek-chat',
    ]);
    expect(new Set(cols.map((c) => c.key)).size).toBe(4);
    expect(cols.every((c) => /^[a-z-]+-\d+$/.test(c.key))).toBe(true);
  });

  it('adds the provider when providers differ', () => {
    const cols = resolveColumns(
      [{ mode: 'react' }, { mode: 'react', provider: 'deepseek', model: 'deepseek-chat' }],
      base,
    );
    expect(cols.map((c) => c.label)).toEqual(['ReAct · sim (simulated)', 'ReAct · deepseek-chat (deepseek)']);
  });

  it('refuses two identical columns and two equal labels', () => {
    expect(() => resolveColumns([{ mode: 'code' }, { mode: 'code' }], base)).toThrow(
      /Variants 1 and 2 are the same column/,
    );
    const v: VariantInput[] = [
      { mode: 'react', label: 'A' },
      { mode: 'code', label: 'A' },
    ];
    expect(() => resolveColumns(v, base)).toThrow(/both be labelled "A"/);
  });

  it('names the experiment knobs in words', () => {
    const cols = resolveColumns(
      [
        { mode: 'code', settings: { codeState: 'persist' } },
        { mode: 'react-search', settings: { toolSearch: 'call-tool', toolDescriptions: 'vague' } },
      ],
      base,
    );
    expect(cols.map((c) => c.label)).toEqual([
      'Code Mode · state kept',
      'ReAct + tool search · vague descriptions · via call_tool',
    ]);
  });

  it('a column on another protocol is its own column, recorded and named by it', () => {
    const cols = resolveColumns([{ mode: 'react' }, { mode: 'react', protocol: 'anthropic' }], base);
    expect(cols.map((c) => [c.key, c.label, c.protocol])).toEqual([
      ['react', 'ReAct', undefined],
      ['react-2', 'ReAct · Messages API', 'anthropic'],
    ]);
    expect(() =>
      resolveColumns(
        [
          { mode: 'react', protocol: 'anthropic' },
          { mode: 'react', protocol: 'anthropic' },
        ],
        base,
      ),
    ).toThrow(/same column/);
  });

  it('a given label wins', () => {
    expect(resolveColumns([{ mode: 'react', label: 'Baseline' }], base)[0]).toMatchObject({
      key: 'react-1',
      label: 'Baseline',
    });
  });
});

describe('columnOf and columnSlots', () => {
  it('a run recorded before variants is the column of its mode', () => {
    expect(columnOf({ mode: 'hybrid' })).toEqual({ key: 'hybrid', label: 'Hybrid' });
    expect(columnOf({ mode: 'code', variant: { key: 'code-2', label: 'X' } })).toEqual({ key: 'code-2', label: 'X' });
  });

  it("gives a mode's plain column its mode's own colours, and every other column a shade of its own mode", () => {
    const slots = columnSlots([
      { key: 'code-1', mode: 'code' },
      { key: 'code', mode: 'code' },
      { key: 'react', mode: 'react' },
      { key: 'code-4', mode: 'code' },
    ]);
    expect(Object.fromEntries(slots)).toEqual({ code: 'code', react: 'react', 'code-1': 'code_1', 'code-4': 'code_2' });
    // No plain column: the mode's first column takes its own colours, the rest its shades.
    expect(
      Object.fromEntries(
        columnSlots([
          { key: 'code-1', mode: 'code' },
          { key: 'react-2', mode: 'react' },
          { key: 'code-3', mode: 'code' },
        ]),
      ),
    ).toEqual({ 'code-1': 'code', 'react-2': 'react', 'code-3': 'code_1' });
    // A mode's colour never goes to another mode's column, however many columns a mode has.
    const many = columnSlots(Array.from({ length: 8 }, (_, i) => ({ key: `react-${i}`, mode: 'react' })));
    expect([...many.values()]).toEqual([
      'react',
      'react_1',
      'react_2',
      'react_3',
      'react_4',
      'react_5',
      'react_6',
      'react_7',
    ]);
    // The same columns get the same slots in any comparison that has them in this order.
    expect(
      columnSlots([
        { key: 'hybrid-1', mode: 'hybrid' },
        { key: 'hybrid-2', mode: 'hybrid' },
      ]).get('hybrid-2'),
    ).toBe('hybrid_1');
    expect(columnSlots([{ key: 'x', mode: 'future-mode' }]).get('x')).toBe('future-mode');
  });
});

describe('stored meta with variants', () => {
  const meta = {
    id: 'c1',
    createdAt: 1,
    task: { id: null, text: 't' },
    provider: { name: 'simulated', baseUrl: 'http://x', model: 'sim', simulated: true },
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    runs: [
      { runId: 'c1-code-1', mode: 'code', variant: 'code-1' },
      { runId: 'c1-code', mode: 'code', variant: 'code' },
    ],
    variants: [
      { key: 'code-1', label: 'Code Mode · no return types', mode: 'code', settings: { returnTypes: false } },
      { key: 'code', label: 'Code Mode', mode: 'code' },
    ],
  };
  it('is accepted, and a run naming an unlisted column is not', () => {
    expect(checkComparisonMeta(meta).ok).toBe(true);
    const bad = { ...meta, runs: [{ runId: 'c1-x', mode: 'code', variant: 'nope' }] };
    expect(checkComparisonMeta(bad)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('names column "nope"'),
    });
  });

  it("keeps a column's protocol, and refuses one that is none", () => {
    const withProtocol = { ...meta, variants: [{ ...meta.variants[0], protocol: 'anthropic' }, meta.variants[1]] };
    const read = checkComparisonMeta(withProtocol);
    expect(read.ok && read.meta.variants?.[0]?.protocol).toBe('anthropic');
    expect(
      checkComparisonMeta({ ...meta, variants: [{ ...meta.variants[0], protocol: 'grpc' }, meta.variants[1]] }).ok,
    ).toBe(false);
  });
});
