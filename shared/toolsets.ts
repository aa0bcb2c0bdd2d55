/**
 * The tool profiles a run can offer, one description each (composer, CLI help, reports). A profile fixes the
 * tools, their descriptions and the system prompts of every mode; the engine builds each in
 * electron/engine/modes/toolsets.ts.
 */
export interface ToolsetDescription {
  readonly label: string;
  /** What the profile is for, in one line. */
  readonly about: string;
}

export const TOOLSETS = {
  parallax: {
    label: 'Parallax tools',
    about: 'Eight tools with full descriptions (arguments, return shapes, limits); results as JSON objects.',
  },
  seed: {
    label: 'Tutorial tools',
    about:
      "The reference tutorial's six tools with one-line descriptions, every argument a string, run_shell's output as plain text, " +
      'and its short system prompts: reproduces its published token table.',
  },
} as const satisfies Record<string, ToolsetDescription>;

export type ToolsetId = keyof typeof TOOLSETS;

export const TOOLSET_IDS = Object.keys(TOOLSETS) as [ToolsetId, ...ToolsetId[]];

/** A stored comparison may name a profile this build does not know: show the id itself. */
export const toolsetLabel = (id: string): string =>
  Object.hasOwn(TOOLSETS, id) ? TOOLSETS[id as ToolsetId].label : id;
