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

export type Marker = 'circle' | 'square' | 'triangle' | 'diamond' | 'plus' | 'star';

export interface ModeShades {
  /** Prompt tokens, lines and the mode's swatch. */
  readonly prompt: string;
  /** Completion tokens: a lighter (dark theme: paler) shade of the prompt colour. */
  readonly completion: string;
}

export interface ModeDescription {
  /** The name on every surface: composer, columns, charts, reports, CLI tables. */
  readonly label: string;
  /** What the mode offers the model, in one line (composer hint, report legend). */
  readonly about: string;
  /** Whether the mode offers run_code: its worker starts the QuickJS sandbox thread before the run is released. */
  readonly usesSandbox: boolean;
  readonly colour: { readonly light: ModeShades; readonly dark: ModeShades };
  /** SVG stroke-dasharray of the mode's line ('' = solid), so lines differ without colour too. */
  readonly dash: string;
  readonly marker: Marker;
  /**
   * The tools are described in the system prompt and called in plain text (Thought / Action / Action Input),
   * so the request carries no `tools` parameter and the prompt's tool list counts as tool definitions.
   */
  readonly toolsInPrompt?: boolean;
}

/** Every mode, in the order the composer lists them. */
export const MODES = {
  react: {
    label: 'ReAct',
    about: 'Native tool calling: every tool schema on every request.',
    usesSandbox: false,
    colour: { light: { prompt: '#0072B2', completion: '#99C7E0' }, dark: { prompt: '#5b9bff', completion: '#b3d0ff' } },
    dash: '',
    marker: 'circle',
  },
  code: {
    label: 'Code Mode',
    about: 'One run_code tool: the model writes a program that calls the tools.',
    usesSandbox: true,
    colour: { light: { prompt: '#D55E00', completion: '#EEBF99' }, dark: { prompt: '#f0953a', completion: '#fcd6ac' } },
    dash: '7 4',
    marker: 'square',
  },
  hybrid: {
    label: 'Hybrid',
    about: 'list_dir and read_file as direct tools, plus run_code for batch work.',
    usesSandbox: true,
    colour: { light: { prompt: '#009E73', completion: '#99D8C7' }, dark: { prompt: '#2aa57f', completion: '#8fdcc0' } },
    dash: '2 3',
    marker: 'triangle',
  },
  'react-search': {
    label: 'ReAct + tool search',
    about: 'Four file tools and search_tools; the tools it finds join later requests.',
    usesSandbox: false,
    colour: { light: { prompt: '#CC79A7', completion: '#E8C3D7' }, dark: { prompt: '#e46aa8', completion: '#f7b5d6' } },
    dash: '9 3 2 3',
    marker: 'diamond',
  },
  'react-text': {
    label: 'ReAct (text)',
    about: 'No tools parameter: the tools are listed in the prompt, and Thought / Action / Action Input replies are parsed.',
    usesSandbox: false,
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
    usesSandbox: true,
    colour: { light: { prompt: '#303030', completion: '#686868' }, dark: { prompt: '#f0f0f0', completion: '#545454' } },
    dash: '4 2 1 2',
    marker: 'star',
  },
} as const satisfies Record<string, ModeDescription>;

export type ModeId = keyof typeof MODES;

export const MODE_IDS = Object.keys(MODES) as [ModeId, ...ModeId[]];

export const MODE_LABELS: Readonly<Record<ModeId, string>> = Object.fromEntries(MODE_IDS.map((m) => [m, MODES[m].label])) as Record<ModeId, string>;

/** The modes a comparison runs when none are chosen: the two ways of calling tools. */
export const DEFAULT_MODES: readonly ModeId[] = ['react', 'code'];

export const isModeId = (value: unknown): value is ModeId => typeof value === 'string' && Object.hasOwn(MODES, value);

/** A mode's description; a stored comparison from a newer Parallax may name a mode this build does not know. */
export function describeMode(mode: string): ModeDescription | null {
  return isModeId(mode) ? MODES[mode] : null;
}

/** A mode's name, or the stored id itself when this build does not know the mode. */
export const modeLabel = (mode: string): string => describeMode(mode)?.label ?? mode;
