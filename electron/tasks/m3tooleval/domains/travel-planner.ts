/**
 * M3ToolEval's "Travel Itinerary Planning" tools and their tables (code-act, MIT; see ../LICENSE-m3tooleval.md),
 * written anew over Python values. The six places are written with their quotes ('"A"' … '"F"') as in the
 * original's tables, so results show them that way; the tools accept either form.
 */
import { add, mul } from '../py-arith.js';
import { pyMax, pyMin, pySum } from '../py-expr.js';
import { PyDict, PyError, repr, typeName, type PyValue } from '../py-value.js';
import type { M3Tool } from '../m3-tool.js';

export const LOC: readonly string[] = ['"A"', '"B"', '"C"', '"D"', '"E"', '"F"'];
const SUPPORTED = new Set([...LOC, ...LOC.map((l) => l.replace(/"/g, ''))]);

const FLIGHTS: readonly (readonly [number, number, string, number])[] = [
  [4, 0, '2023-12-25', 450],
  [4, 1, '2023-11-10', 350],
  [4, 1, '2023-11-10', 165],
  [4, 1, '2023-12-15', 360],
  [1, 4, '2023-12-08', 470],
  [1, 4, '2023-12-08', 946],
  [4, 2, '2023-10-05', 600],
  [4, 2, '2023-12-01', 580],
  [4, 3, '2023-08-15', 400],
  [1, 2, '2023-11-13', 300],
  [0, 2, '2023-08-20', 250],
  [0, 3, '2023-12-28', 250],
  [0, 3, '2023-12-29', 410],
  [0, 1, '2023-12-29', 460],
  [3, 2, '2024-01-02', 380],
  [3, 0, '2023-08-18', 490],
  [3, 0, '2023-08-18', 560],
  [2, 1, '2024-01-05', 300],
  [2, 1, '2023-12-03', 900],
  [2, 1, '2023-12-03', 450],
  [2, 3, '2023-12-03', 450],
  [1, 3, '2023-12-06', 250],
  [1, 3, '2023-12-06', 700],
  [3, 1, '2023-12-06', 490],
  [3, 1, '2023-12-06', 746],
  [1, 3, '2024-01-01', 490],
  [1, 3, '2024-01-01', 546],
  [1, 4, '2024-01-07', 320],
  [4, 0, '2024-01-10', 360],
];
const HOTELS: readonly (readonly [number, readonly string[], number, number])[] = [
  [0, ['wifi', 'pool'], 120, 4],
  [0, ['wifi', 'pool'], 50, 3],
  [1, ['wifi', 'gym'], 150, 4],
  [1, ['pool', 'gym', 'wifi'], 160, 5],
  [2, ['pool'], 100, 3],
  [2, ['wifi'], 95, 4],
  [2, ['wifi', 'gym'], 103, 4],
  [2, ['wifi', 'pool'], 110, 5],
  [3, ['wifi'], 130, 4],
  [3, ['wifi', 'gym'], 140, 4],
  [3, ['wifi', 'gym', 'pool'], 135, 5],
  [4, ['wifi', 'gym'], 190, 4],
  [4, ['wifi', 'gym', 'pool'], 120, 5],
];

function flight([from, to, date, price]: (typeof FLIGHTS)[number]): PyDict {
  const d = new PyDict();
  d.set('from_location', LOC[from]);
  d.set('to_location', LOC[to]);
  d.set('date', date);
  d.set('price', BigInt(price));
  return d;
}

function hotel([location, preferences, price, rating]: (typeof HOTELS)[number]): PyDict {
  const d = new PyDict();
  d.set('location', LOC[location]);
  d.set('preferences', [...preferences]);
  d.set('price_per_night', BigInt(price));
  d.set('rating', BigInt(rating));
  return d;
}

/** str.strip('"'), which the original applies to every place it is given. */
function place(v: PyValue): string {
  if (typeof v !== 'string') throw new PyError('AttributeError', `'${typeName(v)}' object has no attribute 'strip'`);
  return v.replace(/^"+|"+$/g, '');
}

const supportedList = repr([...LOC]);

export function findFlights(fromLocation: PyValue, toLocation: PyValue, date: PyValue): PyDict[] {
  const from = place(fromLocation);
  const to = place(toLocation);
  if (!SUPPORTED.has(from))
    throw new PyError('ValueError', `Origin [${from}] is not supported. Supported from_locations: ${supportedList}`);
  if (!SUPPORTED.has(to))
    throw new PyError('ValueError', `Destination [${to}] is not supported. Supported to_locations: ${supportedList}`);
  return FLIGHTS.filter(
    (f) => LOC[f[1]].replace(/"/g, '') === to && f[2] === date && LOC[f[0]].replace(/"/g, '') === from,
  ).map(flight);
}

export function bookHotel(location: PyValue, preferences: readonly PyValue[]): PyDict[] {
  const at = place(location);
  if (!SUPPORTED.has(at))
    throw new PyError('ValueError', `Location [${at}] is not supported. Supported locations: ${supportedList}`);
  return HOTELS.filter(
    (h) => LOC[h[0]].replace(/"/g, '') === at && preferences.every((p) => typeof p === 'string' && h[1].includes(p)),
  ).map(hotel);
}

export const budgetCalculator = (flightPrice: PyValue, hotelPricePerNight: PyValue, numNights: PyValue): PyValue =>
  add(flightPrice, mul(hotelPricePerNight, numNights));

export const TRAVEL_TOOLS: readonly M3Tool[] = [
  {
    name: 'find_flights',
    description:
      'Finds flights based on source, destination and date. Arguments: from_location (str), to_location (str), date (str) in YYYY-MM-DD format.\n' +
      'Returns a list of flights, each represented as a dictionary with keys "from_location", "to_location" (destination), "date", and "price".\n' +
      'Example: [{"from_location": "A", "to_location": "B", "date": "2023-12-25", "price": 450}]',
    params: [
      { name: 'from_location', type: 'str' },
      { name: 'to_location', type: 'str' },
      { name: 'date', type: 'str' },
    ],
    returns: '{from_location: string, to_location: string, date: string, price: number}[]',
    pythonReturns: 'List[Dict]',
    run: ([from, to, date]) => findFlights(from, to, date),
  },
  {
    name: 'book_hotel',
    description:
      'Books a hotel based on location and preferences. Arguments: location (str), *preferences (variable number of str arguments).\n' +
      'Returns a list of hotels, each represented as a dictionary with keys "location", "preferences", "price_per_night", and "rating".\n' +
      'Example: [{"location": "A", "preferences": ["wifi", "pool"], "price_per_night": 120, "rating": 4}]',
    params: [
      { name: 'location', type: 'str' },
      { name: 'preferences', type: 'str', variadic: true },
    ],
    returns: '{location: string, preferences: string[], price_per_night: number, rating: number}[]',
    pythonReturns: 'List[Dict]',
    run: ([location, ...preferences]) => bookHotel(location, preferences),
  },
  {
    name: 'budget_calculator',
    description:
      'Calculates the total budget for a trip. Arguments: flight_price (float), hotel_price_per_night (float), num_nights (int).\n' +
      'Returns the total budget (float).',
    params: [
      { name: 'flight_price', type: 'float' },
      { name: 'hotel_price_per_night', type: 'float' },
      { name: 'num_nights', type: 'int' },
    ],
    returns: 'number',
    pythonReturns: 'float',
    run: ([f, h, n]) => budgetCalculator(f, h, n),
  },
  {
    name: 'max',
    description: 'Finds the maximum value among the given arguments. Accepts variable number of float arguments.',
    params: [{ name: 'args', type: 'float', variadic: true }],
    returns: 'number',
    pythonReturns: 'float',
    // The original's tool is Python's max itself: one argument is iterated; a Python program calls the built-in.
    pythonBuiltin: true,
    run: (args) => pyMax([...args]),
  },
  {
    name: 'min',
    description: 'Finds the minimum value among the given arguments. Accepts variable number of float arguments.',
    params: [{ name: 'args', type: 'float', variadic: true }],
    returns: 'number',
    pythonReturns: 'float',
    pythonBuiltin: true,
    run: (args) => pyMin([...args]),
  },
  {
    name: 'sum',
    description: 'Sums the given arguments. Accepts variable number of float arguments.',
    params: [{ name: 'args', type: 'float', variadic: true }],
    returns: 'number',
    pythonReturns: 'float',
    run: (args) => pySum([...args]),
  },
];
