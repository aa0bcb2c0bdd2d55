/**
 * The simulated model reading trade-calculator instructions: each offer's quantity, unit price, conversion
 * rate and tariff rate (with the discounts and price changes the words give, worked out by the model itself),
 * then convert_currency → calculate_tariff → estimate_final_value per offer, and what is asked of the values
 * (the one value, the least or the greatest with the tools, a list, a difference). The figures are read from
 * the words, so another instruction of the same shape is read as well.
 */
import type { PyValue } from '../py-value.js';
import { call, calc, lit, op, ref, spread, type Expr, type Plan, type Step } from './plan.js';

const NUM = String.raw`(\d+(?:\.\d+)?)`;
const num = (s: string): PyValue => (s.includes('.') ? Number(s) : BigInt(s));
const nums = (s: string): PyValue[] => [...s.matchAll(/\d+(?:\.\d+)?/g)].map((m) => num(m[0]));
const first = (re: RegExp, text: string): PyValue | null => {
  const m = re.exec(text);
  return m ? num(m[1]) : null;
};

interface Offer {
  /** The amount converted: quantity × price (× a factor), as the model works it out. */
  readonly base: Expr;
  readonly rate: PyValue;
  readonly tariff: PyValue;
}

type Aggregate = 'one' | 'min' | 'max' | 'list' | 'diff';

const times = (...xs: PyValue[]): Expr => xs.slice(1).reduce<Expr>((acc, x) => op('mul', acc, lit(x)), lit(xs[0]));

function plan(offers: readonly Offer[], aggregate: Aggregate): Plan {
  const steps: Step[] = [];
  offers.forEach((o, i) => {
    const n = i + 1;
    let base = o.base;
    if (base.k === 'op') {
      steps.push(calc(`amount${n}`, base.op, ...base.args));
      base = ref(`amount${n}`);
    }
    steps.push(call(`converted${n}`, 'convert_currency', base, lit(o.rate)));
    steps.push(call(`tariff${n}`, 'calculate_tariff', ref(`converted${n}`), lit(o.tariff)));
    steps.push(call(`final${n}`, 'estimate_final_value', ref(`converted${n}`), ref(`tariff${n}`)));
  });
  const finals = offers.map((_o, i) => ref(`final${i + 1}`));
  switch (aggregate) {
    case 'one':
      return { steps, answer: finals[0] };
    case 'list':
      return { steps, answer: op('list', ...finals) };
    case 'diff':
      return { steps, answer: op('sub', finals[0], finals[1]) };
    case 'min':
    case 'max':
      steps.push(spread(call('best', aggregate === 'min' ? 'find_minimum' : 'find_maximum', op('list', ...finals))));
      return { steps, answer: ref('best') };
  }
}

function aggregateOf(text: string): Aggregate {
  if (/list of (two|three) values|as a list|list them/i.test(text)) return 'list';
  if (/subtracting/i.test(text)) return 'diff';
  if (/\b(least|minimum|lowest)\b/i.test(text)) return 'min';
  if (/\b(maximum|highest|most profitable|more profitable)\b/i.test(text)) return 'max';
  return 'one';
}

/** "150 units at 200 credits per unit, conversion rate 1.7, tariff rate 8%" (Commodity n:, Offer n:). */
function listedOffers(text: string): Offer[] {
  const re = new RegExp(
    String.raw`(\d+) units at ${NUM} credits per unit, conversion rate ${NUM}, tariff rate ${NUM}%`,
    'g',
  );
  return [...text.matchAll(re)].map((m) => ({ base: times(num(m[1]), num(m[2])), rate: num(m[3]), tariff: num(m[4]) }));
}

function offersOf(text: string): Offer[] | null {
  const listed = listedOffers(text);
  if (listed.length > 0) return listed;
  const described = [
    ...text.matchAll(
      new RegExp(
        String.raw`base price of (\d+) credits per unit, a conversion rate of ${NUM}, a tariff rate of ${NUM}%, and a quantity of (\d+) units`,
        'g',
      ),
    ),
  ];
  if (described.length > 0)
    return described.map((m) => ({ base: times(num(m[4]), num(m[1])), rate: num(m[2]), tariff: num(m[3]) }));

  const unitPrice =
    first(/base price per unit is (\d+)/i, text) ??
    first(/base price of (\d+)/i, text) ??
    first(/at (\d+) credits per unit/i, text) ??
    first(/price is (\d+) credits per unit/i, text);
  const rate = first(
    new RegExp(String.raw`conversion rate (?:to local currency |today )?(?:is |of )?(?:fixed at )?${NUM}`, 'i'),
    text,
  );
  const tariff = first(
    new RegExp(String.raw`tariff (?:rate )?(?:for exporting this mineral )?(?:is |of )?${NUM}%`, 'i'),
    text,
  );

  const routes = [
    ...text.matchAll(new RegExp(String.raw`Route \d+: Conversion rate of ${NUM} and tariff rate of ${NUM}%`, 'g')),
  ];
  const cargo = first(/cargo of (\d+) units/i, text);
  if (routes.length > 0 && cargo !== null)
    return routes.map((m) => ({ base: lit(cargo), rate: num(m[1]), tariff: num(m[2]) }));

  const rates = /conversion rates (?:available are|-) ([\d.,\sand]+?)(?:\.\s|\.$|, with)/i.exec(text);
  const quantity = first(/(\d+) units of/i, text);
  if (rates && unitPrice !== null && tariff !== null && quantity !== null) {
    return nums(rates[1]).map((r) => ({ base: times(quantity, unitPrice), rate: r, tariff }));
  }

  const perQuantity = /quantities of ([\d,\sand]+) units at conversion rates of ([\d.,\sand]+?) respectively/i.exec(
    text,
  );
  if (perQuantity && unitPrice !== null && tariff !== null) {
    const rs = nums(perQuantity[2]);
    return nums(perQuantity[1]).map((q, i) => ({ base: times(unitPrice, q), rate: rs[i], tariff }));
  }

  const seasons = [...text.matchAll(/(\d+) credits in (summer|autumn|winter|spring)/gi)];
  const seasonQuantity = first(/quantity is (\d+) units/i, text);
  if (seasons.length > 0 && seasonQuantity !== null && rate !== null && tariff !== null) {
    return seasons.map((m) => ({ base: times(num(m[1]), seasonQuantity), rate, tariff }));
  }

  const demand = /increase by (\d+)% in high demand and decrease by (\d+)% in low demand/i.exec(text);
  if (demand && unitPrice !== null && rate !== null && tariff !== null) {
    const up = 1 + Number(demand[1]) / 100;
    const down = 1 - Number(demand[2]) / 100;
    return [...text.matchAll(/(high|normal|low) demand \((\d+) units\)/gi)].map((m) => {
      const factor = m[1].toLowerCase() === 'high' ? [up] : m[1].toLowerCase() === 'low' ? [down] : [];
      return { base: times(num(m[2]), unitPrice, ...factor), rate, tariff };
    });
  }

  const options = [...text.matchAll(/Sell (\d+) units at a tariff rate of (\d+(?:\.\d+)?)%/gi)];
  if (options.length > 0 && unitPrice !== null && rate !== null)
    return options.map((m) => ({ base: times(num(m[1]), unitPrice), rate, tariff: num(m[2]) }));

  const strategies = [...text.matchAll(/(\d+) units with a (\d+(?:\.\d+)?)% tariff/gi)];
  if (strategies.length > 0 && unitPrice !== null && rate !== null)
    return strategies.map((m) => ({ base: times(num(m[1]), unitPrice), rate, tariff: num(m[2]) }));

  const bulk =
    /(\d+)% off for orders of (\d+) units or more/i.exec(text) ?? /purchase of (\d+) units or more/i.exec(text);
  if (bulk) return bulkOffers(text, rate, tariff, unitPrice);

  const future =
    /(\d+)% higher price, but face a (\d+)% increase in tariff and a ([\d.]+) decrease in conversion rate/i.exec(text);
  const sell = /sell (\d+) units at (\d+) credits per unit, conversion rate ([\d.]+), tariff (\d+)%/i.exec(text);
  if (future && sell) {
    const [q, p, r, t] = [num(sell[1]), num(sell[2]), num(sell[3]), num(sell[4])];
    return [
      { base: times(q, p), rate: r, tariff: t },
      {
        base: times(q, p, 1 + Number(future[1]) / 100),
        rate: Number(r) - Number(future[3]),
        tariff: BigInt(Number(t) + Number(future[2])),
      },
    ];
  }

  if (quantity !== null && unitPrice !== null && rate !== null && tariff !== null)
    return [{ base: times(quantity, unitPrice), rate, tariff }];
  return null;
}

/** Bulk discounts: the discount applies from the threshold on, worked out per quantity and price. */
function bulkOffers(
  text: string,
  rate: PyValue | null,
  tariff: PyValue | null,
  unitPrice: PyValue | null,
): Offer[] | null {
  const discount = first(/(\d+)% (?:off|discount)/i, text);
  const threshold = first(/(\d+) units or more/i, text);
  if (discount === null || threshold === null || rate === null || tariff === null) return null;
  const factor = 1 - Number(discount) / 100;
  const withDiscount = (q: PyValue, p: PyValue): Expr =>
    Number(q) >= Number(threshold) ? times(q, p, factor) : times(q, p);
  const prices = [...text.matchAll(/base price (\d+) credits per unit/gi)].map((m) => num(m[1]));
  const quantities = /purchasing (.+?) of each/i.exec(text);
  if (prices.length > 0 && quantities) {
    return prices.flatMap((p) => nums(quantities[1]).map((q) => ({ base: withDiscount(q, p), rate, tariff })));
  }
  const trade = first(/for a trade of (\d+) units/i, text);
  if (trade === null || unitPrice === null) return null;
  return [{ base: withDiscount(trade, unitPrice), rate, tariff }];
}

export function readTrade(text: string): Plan | null {
  if (!/trade value|trader|tariff/i.test(text)) return null;
  const literal = new RegExp(String.raw`for a price of ${NUM} units with a tariff of ${NUM} units`, 'i').exec(text);
  if (literal) {
    // The words give the tariff itself, so the model passes it as the tariff.
    return {
      steps: [call('final', 'estimate_final_value', lit(num(literal[1])), lit(num(literal[2])))],
      answer: ref('final'),
    };
  }
  const offers = offersOf(text);
  return offers && offers.length > 0 ? plan(offers, aggregateOf(text)) : null;
}
