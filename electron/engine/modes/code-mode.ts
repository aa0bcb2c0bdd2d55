/**
 * Code Mode, in JavaScript (QuickJS) and in Python (Pyodide in a contained child process, sandbox/python/): the
 * model gets one tool, run_code, and writes programs that call the other tools as plain synchronous functions
 * (search_tools finds the hidden ones). Only what a program prints returns to the conversation; each call gets a
 * fresh namespace. Recorded alike in both languages: one `code-run` event per call, one `tool-search` event per
 * search_tools call, emitted as it happens. The two modes differ only in their language (MODES[id].program).
 */
import { MODES, type ProgramLanguage } from '../../../shared/modes.js';
import type { ToolsetId } from '../../../shared/toolsets.js';
import { RUN_CODE } from './code/run-code-tool.js';
import { createProgramTool } from './code/program-tool.js';
import { defineMode, type ModeAdapter, type ModeDefinition, type ModeOptions } from './mode.js';
import { catalogOffers } from './offers.js';
import { CODE_PY_SYSTEM_PROMPT, CODE_SYSTEM_PROMPT } from './prompts.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { toolsetOf } from './toolsets.js';

export {
  dropCodeSandbox,
  dropPythonSandbox,
  prewarmCodeSandbox,
  prewarmPythonSandbox,
  pythonPrewarmed,
} from './code/program-tool.js';

const LANGUAGE_NAMES: Readonly<Record<ProgramLanguage, string>> = { javascript: 'JavaScript', python: 'Python' };

/** A Code Mode whose programs are in the language its description names: run_code is its one tool. */
function programMode<Id extends 'code' | 'code-py'>(id: Id, parallaxPrompt: string): ModeDefinition<Id> {
  const language = MODES[id].program;
  const prompts: Readonly<Record<ToolsetId, string>> = {
    parallax: parallaxPrompt,
    seed: `${SEED_BASE} Write ${LANGUAGE_NAMES[language]} programs for run_code; only what a program prints comes back to you.`,
  };
  const create = (opts: ModeOptions): ModeAdapter => {
    const program = createProgramTool(opts, language);
    const exposed = [program.exposure];
    return {
      id,
      systemPrompt: prompts[toolsetOf(opts.settings, opts.task, opts.mcpTools).id],
      tools: () => exposed,
      async handleCall(name, args, ctx) {
        if (name !== RUN_CODE) {
          return `Tool "${name}" does not exist. The only tool is ${RUN_CODE}: call it with {"code": "<${LANGUAGE_NAMES[language]} program>"}; other tools are functions inside the program.`;
        }
        return program.call(args, ctx);
      },
      dispose() {
        program.dispose();
      },
    };
  };
  return defineMode({
    id,
    prompts,
    create,
    // The catalog's functions as signatures in the programs' language.
    offers: (toolset, returnTypes) => catalogOffers(toolset, returnTypes, language === 'python'),
    ownTools: () => [RUN_CODE],
  });
}

export const codeMode = programMode('code', CODE_SYSTEM_PROMPT);
export const codePyMode = programMode('code-py', CODE_PY_SYSTEM_PROMPT);

export const createCodeMode = (opts: ModeOptions): ModeAdapter => codeMode.create(opts);
export const createCodePyMode = (opts: ModeOptions): ModeAdapter => codePyMode.create(opts);
