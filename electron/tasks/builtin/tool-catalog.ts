/**
 * The tool-catalog task: a question that needs two of the 60 tools a run offers (tools/demo-catalog.ts). The
 * question is read from the task's own words (the validator and the simulated model share this reader), and
 * the answer is checked against the demo tools' figures recomputed at validation time.
 */
import type { Validation } from '../../../shared/step-event.js';
import { cityDistance, convertCurrency, DEMO_CATALOG } from '../../engine/tools/demo-catalog.js';
import { codeToolCatalog, reactToolCatalog, searchToolCatalog } from '../../sim/policies/tool-catalog.js';
import { defineTask } from '../task.js';

export const toolCatalog = defineTask({
  id: 'tool-catalog',
  tools: () => DEMO_CATALOG,
  validate: (answer, ctx) => validateToolCatalog(ctx.taskText, answer),
  sim: {
    detect: catalogQuestion,
    react: reactToolCatalog,
    code: codeToolCatalog,
    modes: { 'react-search': searchToolCatalog },
  },
});

export interface CatalogQuestion {
  readonly amount: number;
  readonly from: string;
  readonly to: string;
  readonly cityA: string;
  readonly cityB: string;
}

const CURRENCY_NAMES: readonly (readonly [RegExp, string])[] = [
  [/^(us |american )?dollars?$/i, 'USD'],
  [/^euros?$/i, 'EUR'],
  [/^(japanese )?yen$/i, 'JPY'],
  [/^(british )?pounds?( sterling)?$/i, 'GBP'],
  [/^(chinese )?yuan|renminbi$/i, 'CNY'],
  [/^swiss francs?$/i, 'CHF'],
  [/^(indian )?rupees?$/i, 'INR'],
  [/^[A-Z]{3}$/, ''],
];

function currencyCode(words: string): string | null {
  const w = words.trim();
  for (const [re, code] of CURRENCY_NAMES) if (re.test(w)) return code || w;
  return null;
}

/** "Convert 250 US dollars to Japanese yen, … distance from Paris to Berlin …" → its figures; null when it is not that question. */
export function catalogQuestion(text: string): CatalogQuestion | null {
  if (!/\bconvert\b/i.test(text) || !/\bdistance\b/i.test(text)) return null;
  const money = /\bconvert\s+(\d+(?:\.\d+)?)\s+([A-Za-z ]+?)\s+(?:to|into)\s+([A-Za-z ]+?)(?=[,.;]|\s+and\b|$)/i.exec(
    text,
  );
  const cities = /\bfrom\s+([A-Z][\p{L}]*(?: [A-Z][\p{L}]*)*)\s+to\s+([A-Z][\p{L}]*(?: [A-Z][\p{L}]*)*)/u.exec(text);
  if (!money || !cities) return null;
  const from = currencyCode(money[2]);
  const to = currencyCode(money[3]);
  if (!from || !to) return null;
  return { amount: Number(money[1]), from, to, cityA: cities[1], cityB: cities[2] };
}

/** Whether `written` ("37,800", "877.5", "878") is `value` rounded to the precision it was written with. */
function shows(answer: string, value: number): boolean {
  for (const m of answer.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g)) {
    const written = m[0].replace(/,/g, '');
    const decimals = written.includes('.') ? written.split('.')[1].length : 0;
    if (Math.abs(Number(written) - Number(value.toFixed(decimals))) < 1e-9) return true;
  }
  return false;
}

function validateToolCatalog(taskText: string, answer: string): Validation {
  const q = catalogQuestion(taskText);
  if (!q)
    return {
      ok: false,
      detail: 'The task text no longer asks for a conversion and a distance, so the answer cannot be checked.',
    };
  const money = convertCurrency(q.amount, q.from, q.to).result;
  const km = cityDistance(q.cityA, q.cityB).km;
  const problems = [
    ...(shows(answer, money) ? [] : [`no ${money} ${q.to}`]),
    ...(shows(answer, km) ? [] : [`no ${km} km`]),
  ];
  const expected = `${q.amount} ${q.from} = ${money} ${q.to} and ${q.cityA}–${q.cityB} ${km} km (demo data)`;
  return problems.length === 0
    ? { ok: true, detail: `Expected and found ${expected}.` }
    : { ok: false, detail: `Expected ${expected}; found ${problems.join(' and ')}.` };
}
