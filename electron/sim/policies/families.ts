/**
 * The task policies by family, one case per built-in task: ReAct's (direct calls, parallel when independent)
 * and Code Mode's (programs for run_code). Each mode's wrapper (modes/, react-search.ts, react-text.ts) picks
 * the family it follows; ReAct + tool search adds its searches before ReAct's policies.
 */
import type { SimReply } from '../types.js';
import { finalAnswer } from './common.js';
import type { Conversation } from './conversation.js';
import type { TaskMatch } from './index.js';
import { codeLogStats, reactLogStats } from './log-stats.js';
import { codeTimeAndTitle, reactTimeAndTitle } from './time-and-title.js';
import { codeCalc, codeWeather, reactCalc, reactWeather } from './weather-calc.js';
import { codeOwnerChain, reactOwnerChain } from './owner-chain.js';
import { codeToolCatalog, reactToolCatalog } from './tool-catalog.js';
import { codeConfigLookup, reactConfigLookup } from './config-lookup.js';
import { codeWriteErrors, reactWriteErrors } from './write-errors.js';
import { codeMissingFile, reactMissingFile } from './missing-file.js';
import { codeWebLookup, reactWebLookup } from './web-lookup.js';

/** ReAct's policies: the tools called by name. A request that offers no tools gets a plain refusal. */
export function reactPolicies(conv: Conversation, task: TaskMatch): SimReply {
  if (conv.toolNames.size === 0) return finalAnswer(['This task needs tools, and the request offered none.']);
  switch (task.id) {
    case 'log-stats':
      return reactLogStats(conv);
    case 'time-and-title':
      return reactTimeAndTitle(conv, task);
    case 'weather-f':
      return reactWeather(conv, task.city);
    case 'calc':
      return reactCalc(conv, task.expression);
    case 'config-lookup':
      return reactConfigLookup(conv, task.file);
    case 'write-errors':
      return reactWriteErrors(conv, task);
    case 'missing-file':
      return reactMissingFile(conv, task.file);
    case 'owner-chain':
      return reactOwnerChain(conv);
    case 'tool-catalog':
      return reactToolCatalog(conv, task);
    case 'web-lookup':
      return reactWebLookup(conv, task);
  }
}

/** Code Mode's policies: programs for run_code, in the language its description asks for. */
export function codePolicies(conv: Conversation, task: TaskMatch): SimReply {
  switch (task.id) {
    case 'log-stats':
      return codeLogStats(conv);
    case 'time-and-title':
      return codeTimeAndTitle(conv, task);
    case 'weather-f':
      return codeWeather(conv, task.city);
    case 'calc':
      return codeCalc(conv, task.expression);
    case 'config-lookup':
      return codeConfigLookup(conv, task.file);
    case 'write-errors':
      return codeWriteErrors(conv, task);
    case 'missing-file':
      return codeMissingFile(conv, task.file);
    case 'owner-chain':
      return codeOwnerChain(conv);
    case 'tool-catalog':
      return codeToolCatalog(conv, task);
    case 'web-lookup':
      return codeWebLookup(conv, task);
  }
}
