/** The Code Mode sandbox: QuickJS (WASM) in its own thread, tools as synchronous functions, hard limits. */
export {
  runProgram,
  programText,
  sharedSandbox,
  disposeSharedSandbox,
  NO_OUTPUT,
  SEARCH_LIMIT,
} from './run-program.js';
export type { ProgramLanguage, ProgramOptions, ProgramResult, ProgramSandbox, ProgramSearch } from './run-program.js';
export { Sandbox, type SandboxOutcome } from './sandbox.js';
export { checkLimits, limitsFromSettings, DEFAULT_STACK_KB, type SandboxLimits } from './limits.js';
export { formatCodeError } from './program-error.js';
