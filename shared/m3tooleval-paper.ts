/**
 * M3ToolEval's published figures: success rate (%) and average turns of the 18 models of its analysis in the three action modes
 * over its 82 tasks, as the CodeAct paper reports them (Wang et al., ICML 2024, arXiv:2402.01030; the table
 * printed by scripts/eval/m3tooleval/m3tooleval_analysis.ipynb of xingyaoww/code-act, MIT licence, Copyright
 * (c) 2024 Xingyao Wang). The paper's text, JSON and code actions are Parallax's ReAct (text), ReAct and Code
 * Mode (Python), the modes that set the same actions before a model.
 */
import type { ModeId } from './modes.js';

export interface PublishedFigures {
  /** Per cent of the 82 tasks. */
  readonly success: number;
  readonly turns: number;
}

export interface PublishedRow {
  readonly model: string;
  readonly text: PublishedFigures;
  readonly json: PublishedFigures;
  readonly code: PublishedFigures;
}

export const PAPER_MODES = ['react-text', 'react', 'code-py'] as const satisfies readonly ModeId[];

const row = (model: string, code: [number, number], json: [number, number], text: [number, number]): PublishedRow => ({
  model,
  code: { success: code[0], turns: code[1] },
  json: { success: json[0], turns: json[1] },
  text: { success: text[0], turns: text[1] },
});

/** [success %, average turns] for code, JSON and text actions, in the notebook's order. */
export const M3_PUBLISHED: readonly PublishedRow[] = [
  row('CodeLlama-13b-Instruct-hf', [4.9, 9.8], [4.9, 9.8], [4.9, 9.7]),
  row('CodeLlama-34b-Instruct-hf', [2.4, 9.9], [0, 10], [0, 10]),
  row('CodeLlama-7b-Instruct-hf', [4.9, 9.7], [2.4, 9.9], [2.4, 9.9]),
  row('Llama-2-13b-chat-hf', [0, 9.7], [0, 10], [0, 10]),
  row('Llama-2-70b-chat-hf', [11, 9.1], [3.7, 9.8], [3.7, 9.8]),
  row('Llama-2-7b-chat-hf', [0, 8.9], [1.2, 9.5], [2.4, 9.6]),
  row('Mistral-7B-Instruct-v0.1', [0, 10], [3.7, 9.8], [1.2, 9.9]),
  row('claude-2', [54.9, 7.2], [39, 8.3], [29.3, 8.5]),
  row('claude-instant-1', [20.7, 8.8], [31.7, 8.6], [24.4, 8.9]),
  row('gemini-pro', [22, 8.8], [19.5, 9.1], [11, 9.5]),
  row('gpt-3.5-turbo-0613', [51.2, 7], [26.8, 8.8], [20.7, 9.2]),
  row('gpt-3.5-turbo-1106', [29.3, 8.4], [15.9, 9], [14.6, 9]),
  row('gpt-4-0613', [67.1, 6.6], [56.1, 7.6], [45.1, 8]),
  row('gpt-4-1106-preview', [74.4, 5.5], [52.4, 7.6], [53.7, 7.7]),
  row('lemur-70b-chat-v1', [13.4, 9.1], [15.9, 9.3], [12.2, 9.4]),
  row('mint-agent', [9.8, 9.4], [13.4, 9.4], [3.7, 9.8]),
  row('text-davinci-002', [4.9, 9.7], [4.9, 9.8], [8.5, 9.6]),
  row('text-davinci-003', [20.7, 9.2], [18.3, 9], [7.3, 9.6]),
];

/** The published row of a model a run names (its name as the paper writes it, case aside), if any. */
export function publishedRowOf(model: string): PublishedRow | undefined {
  const name = model.trim().toLowerCase().replace(/^.*\//, '');
  return M3_PUBLISHED.find((r) => r.model.toLowerCase() === name);
}

/** The published table as rows of words: per model, success % and average turns in text, JSON and code actions. */
export function publishedBoard(): { head: string[]; align: ('l' | 'r')[]; rows: string[][] } {
  const f = (x: PublishedFigures) => [`${x.success.toFixed(1)} %`, x.turns.toFixed(1)];
  return {
    head: ['Model (paper)', 'Text: success', 'turns', 'JSON: success', 'turns', 'Code: success', 'turns'],
    align: ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows: M3_PUBLISHED.map((r) => [r.model, ...f(r.text), ...f(r.json), ...f(r.code)]),
  };
}

export const PUBLISHED_NOTE =
  "The CodeAct paper's figures (Wang et al., ICML 2024; the table of the analysis notebook in xingyaoww/code-act): one run per model and mode over the 82 tasks, " +
  'text, JSON and code actions in one user prompt, up to 10 turns. Parallax runs them as ReAct (text), ReAct and Code Mode (Python).';
