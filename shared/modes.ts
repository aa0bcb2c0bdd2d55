/**
 * The agent modes, one description each: what the app, the reports, the CLI, the engine and the simulated
 * model know of a mode. Adding a mode is one entry here (the compiler then asks for its engine adapter in
 * electron/engine/modes/index.ts) plus the adapter's own file.
 *
 * Colours: ONE palette for the app and the reports. The light shades are the Okabe–Ito hues (set for white
 * paper and the light theme; the HTML report draws with them), the dark shades are brighter for the dark
 * theme. The prompt shades stay apart under protan-, deutan- and tritanopia (the palette tests measure it);
 * dash and marker keep lines apart in grey print.
 */

/**
 * Each marker's outline, for the charts that draw one per point (the HTML report): a circle, a square, or a
 * polygon given by its vertices' offsets from the point for a radius r. A new mode's new shape is one entry.
 */
export type MarkerShape =
  | { readonly kind: 'circle' }
  | { readonly kind: 'square' }
  | { readonly kind: 'polygon'; vertices(r: number): readonly (readonly [number, number])[] };

export const MARKERS = {
  circle: { kind: 'circle' },
  square: { kind: 'square' },
  triangle: {
    kind: 'polygon',
    vertices: (r) => [
      [0, -(r * 1.2)],
      [r * 1.15, r * 0.9],
      [-(r * 1.15), r * 0.9],
    ],
  },
  diamond: {
    kind: 'polygon',
    vertices: (r) => [
      [0, -(r * 1.3)],
      [r * 1.3, 0],
      [0, r * 1.3],
      [-(r * 1.3), 0],
    ],
  },
  // A plus sign as one 12-point polygon, arms a third of its width.
  plus: {
    kind: 'polygon',
    vertices: (r) => {
      const a = r * 1.25,
        b = r * 0.42;
      return [
        [-b, -a],
        [b, -a],
        [b, -b],
        [a, -b],
        [a, b],
        [b, b],
        [b, a],
        [-b, a],
        [-b, b],
        [-a, b],
        [-a, -b],
        [-b, -b],
      ];
    },
  },
  // An X: a plus turned by 45°, for columns that run an agent of their own.
  cross: {
    kind: 'polygon',
    vertices: (r) => {
      const a = r * 1.25,
        b = r * 0.42,
        c = Math.SQRT1_2;
      const plus: [number, number][] = [
        [-b, -a],
        [b, -a],
        [b, -b],
        [a, -b],
        [a, b],
        [b, b],
        [b, a],
        [-b, a],
        [-b, b],
        [-a, b],
        [-a, -b],
        [-b, -b],
      ];
      return plus.map(([x, y]) => [c * (x - y), c * (x + y)] as const);
    },
  },
  // A five-pointed star: ten vertices, so no other marker shares its outline.
  star: {
    kind: 'polygon',
    vertices: (r) =>
      Array.from({ length: 10 }, (_, i) => {
        const radius = i % 2 === 0 ? r * 1.4 : r * 0.6;
        const angle = -Math.PI / 2 + (i * Math.PI) / 5;
        return [radius * Math.cos(angle), radius * Math.sin(angle)] as const;
      }),
  },
} as const satisfies Record<string, MarkerShape>;

export type Marker = keyof typeof MARKERS;

export interface ModeShades {
  /** Prompt tokens, lines and the mode's swatch. */
  readonly prompt: string;
  /** Completion tokens: a lighter (dark theme: paler) shade of the prompt colour. */
  readonly completion: string;
}

/** The language of the programs a mode's run_code runs: JavaScript in QuickJS, Python in Pyodide. */
export type ProgramLanguage = 'javascript' | 'python';

export interface ModeDescription {
  /** The name on every surface: composer, columns, charts, reports, CLI tables. */
  readonly label: string;
  /** What the mode offers the model, in one line (composer hint, report legend). */
  readonly about: string;
  /**
   * The language of the programs it runs through run_code, whose sandbox its worker starts before the run is
   * released (QuickJS, or Pyodide's child); null: the mode has no run_code.
   */
  readonly program: ProgramLanguage | null;
  readonly colour: { readonly light: ModeShades; readonly dark: ModeShades };
  /** SVG stroke-dasharray of the mode's line ('' = solid), so lines differ without colour too. */
  readonly dash: string;
  readonly marker: Marker;
  /**
   * The tools are described in the system prompt and called in plain text (Thought / Action / Action Input),
   * so the request carries no `tools` parameter and the prompt's tool list counts as tool definitions.
   */
  readonly toolsInPrompt?: boolean;
  /**
   * Every report carries its swatch rule, shown or not (the modes reports had from the start); a mode added
   * later gets its rule only in reports that show it, so a report of an earlier comparison stays byte for byte.
   */
  readonly inEveryReport?: boolean;
  /**
   * Not one of Parallax's own loops: a column that runs a program of the user's (an agent column, electron/engine/
   * agent/), recorded through its recording proxy. Not offered as a mode to pick; written as a variant.
   */
  readonly external?: boolean;
}

/** Every mode, in the order the composer lists them. */
export const MODES = {
  react: {
    label: 'ReAct',
    inEveryReport: true,
    about: 'Native tool calling: every tool schema on every request.',
    program: null,
    colour: { light: { prompt: '#0072B2', completion: '#99C7E0' }, dark: { prompt: '#5b9bff', completion: '#b3d0ff' } },
    dash: '',
    marker: 'circle',
  },
  code: {
    label: 'Code Mode',
    inEveryReport: true,
    about: 'One run_code tool: the model writes a program that calls the tools.',
    program: 'javascript',
    colour: { light: { prompt: '#D55E00', completion: '#EEBF99' }, dark: { prompt: '#f0953a', completion: '#fcd6ac' } },
    dash: '7 4',
    marker: 'square',
  },
  hybrid: {
    label: 'Hybrid',
    inEveryReport: true,
    about: 'list_dir and read_file as direct tools, plus run_code for batch work.',
    program: 'javascript',
    colour: { light: { prompt: '#009E73', completion: '#99D8C7' }, dark: { prompt: '#2aa57f', completion: '#8fdcc0' } },
    dash: '2 3',
    marker: 'triangle',
  },
  'react-search': {
    label: 'ReAct + tool search',
    inEveryReport: true,
    about: 'Four file tools and search_tools; the tools it finds join later requests.',
    program: null,
    colour: { light: { prompt: '#CC79A7', completion: '#E8C3D7' }, dark: { prompt: '#e46aa8', completion: '#f7b5d6' } },
    dash: '9 3 2 3',
    marker: 'diamond',
  },
  'react-text': {
    label: 'ReAct (text)',
    about:
      'No tools parameter: the tools are listed in the prompt, and Thought / Action / Action Input replies are parsed.',
    program: null,
    toolsInPrompt: true,
    colour: { light: { prompt: '#4D4400', completion: '#E3DA8A' }, dark: { prompt: '#f0e442', completion: '#a08c50' } },
    dash: '1 3',
    marker: 'plus',
  },
  // Grey, the greys found farthest from the four hues under every kind of colour vision (a grid search over
  // the palette test's own measures); its completion shade is the lighter grey on paper, the darker one at night.
  'code-py': {
    label: 'Code Mode (Python)',
    about: 'One run_code tool: the model writes a Python program (Pyodide) that calls the tools.',
    program: 'python',
    colour: { light: { prompt: '#303030', completion: '#686868' }, dark: { prompt: '#f0f0f0', completion: '#545454' } },
    dash: '4 2 1 2',
    marker: 'star',
  },
  // Violet, the hue farthest from the six modes' in both themes (brown read as Code Mode's orange, at 4.7 ΔE in the
  // dark theme): at least 17 ΔE from every mode in full colour. An agent column is always a variant (its command is its own).
  agent: {
    label: 'Agent',
    external: true,
    about: "A program of your own, started in the run's workspace; its model requests go through a recording proxy.",
    program: null,
    colour: { light: { prompt: '#8338EC', completion: '#CDAFF7' }, dark: { prompt: '#a855f7', completion: '#d8b2fb' } },
    dash: '5 2 1 2 1 2',
    marker: 'cross',
  },
} as const satisfies Record<string, ModeDescription>;

export type ModeId = keyof typeof MODES;

/** Parallax's own modes, the ones a comparison of modes picks from (agent columns are written as variants). */
export const MODE_IDS = Object.keys(MODES).filter((m) => !(MODES[m as ModeId] as ModeDescription).external) as [
  ModeId,
  ...ModeId[],
];

/** Every kind of column a record may name: the modes and the agent column. */
export const COLUMN_MODE_IDS = Object.keys(MODES) as [ModeId, ...ModeId[]];

/** The column kind that runs the user's own program (electron/engine/agent/). */
export const AGENT_MODE = 'agent' satisfies ModeId;

export const MODE_LABELS: Readonly<Record<ModeId, string>> = Object.fromEntries(
  COLUMN_MODE_IDS.map((m) => [m, MODES[m].label]),
) as Record<ModeId, string>;

/** The modes a comparison runs when none are chosen: the two ways of calling tools. */
export const DEFAULT_MODES: readonly ModeId[] = ['react', 'code'];

export const isModeId = (value: unknown): value is ModeId => typeof value === 'string' && Object.hasOwn(MODES, value);

/** What a run's worker prepares for: its mode's program language, or 'none' (no run_code, or no such mode). */
export type WorkerProgram = ProgramLanguage | 'none';

export function workerProgramOf(mode: string): WorkerProgram {
  return (isModeId(mode) && MODES[mode].program) || 'none';
}

/** A mode's description; a stored comparison from a newer Parallax may name a mode this build does not know. */
export function describeMode(mode: string): ModeDescription | null {
  return isModeId(mode) ? MODES[mode] : null;
}

/** A mode's name, or the stored id itself when this build does not know the mode. */
export const modeLabel = (mode: string): string => describeMode(mode)?.label ?? mode;
