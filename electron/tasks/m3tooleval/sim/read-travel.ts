/**
 * The simulated model reading travel-planning instructions: the legs (from, to, date, nights), the hotel wishes
 * for all stays or per city (amenities, "without a pool", business or leisure stays), and how to choose among
 * flights and hotels (the cheaper one, unless the highest rating is asked for). Each leg: find_flights and
 * book_hotel, the choice made by the model, budget_calculator; several legs are added with the sum tool.
 */
import { call, calc, lit, op, ref, spread, type Plan, type Step } from './plan.js';

interface Leg {
  readonly from: string;
  readonly to: string;
  readonly date: string;
  readonly nights: bigint;
}

const PLACE = String.raw`"([A-F])"`;
const DATE = String.raw`(\d{4}-\d{2}-\d{2})`;

function legsOf(text: string): Leg[] {
  const start = new RegExp(`(?:You are at|starting from) ${PLACE}`).exec(text)?.[1];
  if (!start) return [];
  const legs: Leg[] = [];
  let from = start;
  // "to "A" on 2023-12-25 (3 nights)", "to "B" on 2023-11-10 for 2 nights", "trip to "A" on … for 5 nights".
  const re = new RegExp(
    String.raw`to ${PLACE} on ${DATE}(?:,[^.(]*?)?(?: \((\d+) nights?\)| for (\d+) nights?|[^.]*? for (\d+) nights?)`,
    'g',
  );
  for (const m of text.matchAll(re)) {
    legs.push({ from, to: m[1], date: m[2], nights: BigInt(m[3] ?? m[4] ?? m[5]) });
    from = m[1];
  }
  return legs;
}

const AMENITIES = ['wifi', 'pool', 'gym'] as const;

/** The amenities a phrase asks for ("a hotel with wifi and a pool"), and one it rules out ("but without a pool"). */
function wishes(phrase: string): { want: string[]; without: string | null } {
  const without = /without an? (\w+)/i.exec(phrase)?.[1] ?? null;
  const cleaned = without ? phrase.replace(/without an? \w+/i, '') : phrase;
  return { want: AMENITIES.filter((a) => new RegExp(`\\b${a}\\b`, 'i').test(cleaned)), without };
}

interface Stay {
  readonly want: string[];
  readonly without: string | null;
  readonly rated: boolean;
}

function stayFor(text: string, leg: Leg, index: number): Stay {
  const city = new RegExp(`In "${leg.to}", (?:prefer )?([^;.]*)`, 'i').exec(text)?.[1];
  const rated =
    /highest-rated|high rating/i.test(city ?? '') ||
    (!/In "[A-F]", [^;.]*high rating/i.test(text) && /highest-rated|high rating/i.test(text));
  if (city !== undefined) return { ...wishes(/any hotel/i.test(city) ? '' : city), rated };
  const business = /For business stays, prefer hotels with ([^;.]*)/i.exec(text)?.[1];
  const leisure = /for leisure, prefer hotels with ([^;.]*)/i.exec(text)?.[1];
  if (business && leisure) {
    const purposes = [...text.matchAll(/\(\d+ nights?\) for (business|leisure)/gi)].map((m) => m[1].toLowerCase());
    return { ...wishes(purposes[index] === 'leisure' ? leisure : business), rated };
  }
  const general =
    /(?:staying in a hotel with|preferring a hotel with|Choose hotels with|with only an? |hotel with an?) ([^.]*?)(?: for \d+ nights|\.| requirement|, for)/i.exec(
      text,
    )?.[1] ?? '';
  return { ...wishes(general), rated };
}

export function readTravel(text: string): Plan | null {
  if (!/\btrip|tour|itinerary\b/i.test(text) || !/budget/i.test(text)) return null;
  const legs = legsOf(text);
  if (legs.length === 0) return null;
  const steps: Step[] = [];
  legs.forEach((leg, i) => {
    const n = i + 1;
    const stay = stayFor(text, leg, i);
    steps.push(call(`flights${n}`, 'find_flights', lit(leg.from), lit(leg.to), lit(leg.date)));
    steps.push(spread(call(`hotels${n}`, 'book_hotel', lit(leg.to), lit(stay.want))));
    let hotels = `hotels${n}`;
    if (stay.without) {
      steps.push(calc(`suitable${n}`, 'without', ref(hotels), lit(stay.without)));
      hotels = `suitable${n}`;
    }
    steps.push(calc(`flight${n}`, 'minBy', ref(`flights${n}`), lit('price')));
    steps.push(
      calc(`hotel${n}`, stay.rated ? 'maxBy' : 'minBy', ref(hotels), lit(stay.rated ? 'rating' : 'price_per_night')),
    );
    steps.push(
      call(
        `budget${n}`,
        'budget_calculator',
        op('at', ref(`flight${n}`), lit('price')),
        op('at', ref(`hotel${n}`), lit('price_per_night')),
        lit(leg.nights),
      ),
    );
  });
  if (legs.length === 1) return { steps, answer: ref('budget1') };
  steps.push(spread(call('total', 'sum', op('list', ...legs.map((_l, i) => ref(`budget${i + 1}`))))));
  return { steps, answer: ref('total') };
}
