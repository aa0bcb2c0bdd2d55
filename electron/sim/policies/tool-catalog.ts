/**
 * tool-catalog: convert_currency and city_distance out of 65 tools. ReAct has every schema and calls both at
 * once; ReAct + tool search first searches for both (one step), then calls them; Code Mode and Hybrid find
 * both with search_tools in one program and print their results. Every mode then answers from the figures.
 */
import type { CatalogQuestion } from '../../tasks/builtin/tool-catalog.js';
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput } from './common.js';
import { firstLine, lastCall, objectResult, type Conversation } from './conversation.js';
import { programsFor } from './programs.js';
import { findTools, SEARCH_QUERIES } from './react-search.js';

const NEEDED = ['convert_currency', 'city_distance'] as const;

function calls(q: CatalogQuestion) {
  return [
    { name: 'convert_currency', variable: 'convert', args: { amount: q.amount, from: q.from, to: q.to } },
    { name: 'city_distance', variable: 'distance', args: { from: q.cityA, to: q.cityB } },
  ] as const;
}

function catalogAnswer(q: CatalogQuestion, money: Record<string, unknown>, km: Record<string, unknown>): SimReply {
  const demo = money.demo === true || km.demo === true ? ' (demo data from the catalog tools, not live figures)' : '';
  return finalAnswer([
    `${q.amount} ${q.from} is ${String(money.result)} ${q.to} at a rate of ${String(money.rate)}.`,
    `The straight-line distance from ${q.cityA} to ${q.cityB} is ${String(km.km)} km${demo}.`,
  ]);
}

const hasFigures = (money: Record<string, unknown> | undefined, km: Record<string, unknown> | undefined): boolean =>
  typeof money?.result === 'number' && typeof km?.km === 'number';

function reactCatalog(conv: Conversation, q: CatalogQuestion): SimReply {
  const planned = calls(q);
  const made = planned.map((c) => lastCall(conv, c.name));
  if (made.every((c) => c === undefined)) return callTools(planned.map((c) => ({ name: c.name, args: c.args })));
  const [money, km] = made.map((c) => objectResult(c?.result));
  if (!hasFigures(money, km)) {
    const bad = made.find(
      (c, i) => !objectResult(c?.result) || (i === 0 ? typeof money?.result !== 'number' : typeof km?.km !== 'number'),
    );
    return finalAnswer([
      `I could not get both figures: ${bad?.name ?? 'a tool'} answered ${firstLine(bad?.result ?? 'nothing')}`,
    ]);
  }
  return catalogAnswer(q, money!, km!);
}

export function reactToolCatalog(conv: Conversation, q: CatalogQuestion): SimReply {
  return missingTools(conv, NEEDED) ?? reactCatalog(conv, q);
}

export function searchToolCatalog(conv: Conversation, q: CatalogQuestion): SimReply {
  return findTools(conv, NEEDED) ?? reactCatalog(conv, q);
}

export function codeToolCatalog(conv: Conversation, q: CatalogQuestion): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program) {
    const code = programsFor(conv).catalogCalls(
      calls(q).map((c) => ({ variable: c.variable, query: SEARCH_QUERIES[c.name], args: Object.values(c.args) })),
    );
    return callTools([{ name: 'run_code', args: { code } }]);
  }
  const out = programOutput(program.result);
  const objects = out.printed
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => objectResult(l));
  const money = objects.find((o) => typeof o?.result === 'number');
  const km = objects.find((o) => typeof o?.km === 'number');
  if (!hasFigures(money, km))
    return finalAnswer([
      `My program did not get both figures: ${firstLine(out.error ?? (out.printed || 'it printed nothing'))}`,
    ]);
  return catalogAnswer(q, money!, km!);
}
