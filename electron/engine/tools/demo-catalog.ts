/**
 * A large catalog of demo tools (the tool-catalog task): fifty-odd realistic tools a company's agent might be
 * given (currency, units, markets, calendar, geography, …), so a run offers 60 tools and only two are needed.
 * Every tool is deterministic and labelled demo, like get_weather: convert_currency and city_distance compute
 * from fixed tables (the task's validator recomputes them); the others return a made-up value stable per input.
 */
import { z } from 'zod';
import { defineTool, ToolError, type ToolDefinition } from './tool.js';

const DEMO = ' DEMO DATA: made-up values for tests, not a live service.';

/** Demo rates: units of each currency per US dollar. */
const PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 151.2,
  CNY: 7.24,
  CHF: 0.88,
  CAD: 1.37,
  AUD: 1.52,
  INR: 83.3,
  BRL: 5.05,
  KRW: 1345,
  SEK: 10.6,
  MXN: 17.1,
};

/** Latitude, longitude of well-known cities. */
const CITIES: Readonly<Record<string, readonly [number, number]>> = {
  paris: [48.8566, 2.3522],
  berlin: [52.52, 13.405],
  london: [51.5074, -0.1278],
  madrid: [40.4168, -3.7038],
  rome: [41.9028, 12.4964],
  tokyo: [35.6762, 139.6503],
  beijing: [39.9042, 116.4074],
  shanghai: [31.2304, 121.4737],
  'new york': [40.7128, -74.006],
  'san francisco': [37.7749, -122.4194],
  sydney: [-33.8688, 151.2093],
  moscow: [55.7558, 37.6173],
  cairo: [30.0444, 31.2357],
};

const round2 = (n: number): number => Math.round(n * 100) / 100;

export function convertCurrency(
  amount: number,
  from: string,
  to: string,
): { amount: number; from: string; to: string; rate: number; result: number; demo: true } {
  const [f, t] = [from.trim().toUpperCase(), to.trim().toUpperCase()];
  for (const code of [f, t]) {
    if (!(code in PER_USD))
      throw new ToolError(`Unknown currency "${code}". Use an ISO 4217 code: ${Object.keys(PER_USD).join(', ')}.`);
  }
  const rate = PER_USD[t] / PER_USD[f];
  return { amount, from: f, to: t, rate: Math.round(rate * 1e6) / 1e6, result: round2(amount * rate), demo: true };
}

export function cityDistance(from: string, to: string): { from: string; to: string; km: number; demo: true } {
  const coords = [from, to].map((city) => {
    const c = CITIES[city.trim().toLowerCase()];
    if (!c) throw new ToolError(`Unknown city "${city}". Known cities: ${Object.keys(CITIES).join(', ')}.`);
    return c;
  });
  // Haversine on a sphere of 6,371 km: the great-circle ("as the crow flies") distance.
  const rad = (d: number): number => (d * Math.PI) / 180;
  const [[lat1, lon1], [lat2, lon2]] = coords;
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return { from: from.trim(), to: to.trim(), km: Math.round(2 * 6371 * Math.asin(Math.sqrt(a)) * 10) / 10, demo: true };
}

type Param = readonly [name: string, type: 'string' | 'number', description: string];
type Spec = readonly [name: string, description: string, params: readonly Param[]];

/** The rest of the catalog: name, what it does, its arguments. Results are made up per input. */
const SPECS: readonly Spec[] = [
  [
    'get_exchange_rates',
    'List the exchange rates of every supported currency against a base currency.',
    [['base', 'string', 'ISO 4217 code, e.g. "EUR".']],
  ],
  [
    'currency_history',
    'Get the daily closing exchange rate between two currencies on a past date.',
    [
      ['from', 'string', 'ISO 4217 code.'],
      ['to', 'string', 'ISO 4217 code.'],
      ['date', 'string', 'YYYY-MM-DD.'],
    ],
  ],
  [
    'convert_units',
    'Convert a quantity between units of length, mass, volume or temperature.',
    [
      ['value', 'number', 'The quantity.'],
      ['from_unit', 'string', 'e.g. "mile".'],
      ['to_unit', 'string', 'e.g. "km".'],
    ],
  ],
  [
    'convert_timezone',
    'Convert a local date and time from one IANA time zone to another.',
    [
      ['datetime', 'string', 'ISO 8601 local time.'],
      ['from_zone', 'string', 'e.g. "Europe/Paris".'],
      ['to_zone', 'string', 'e.g. "Asia/Tokyo".'],
    ],
  ],
  [
    'get_stock_quote',
    'Get the latest price, change and volume of a stock by its ticker symbol.',
    [['symbol', 'string', 'Ticker, e.g. "ACME".']],
  ],
  [
    'stock_history',
    'Get daily open, high, low and close prices of a stock over a date range.',
    [
      ['symbol', 'string', 'Ticker.'],
      ['start', 'string', 'YYYY-MM-DD.'],
      ['end', 'string', 'YYYY-MM-DD.'],
    ],
  ],
  [
    'market_index',
    'Get the current level of a stock market index such as a national benchmark.',
    [['index', 'string', 'Index name.']],
  ],
  [
    'crypto_price',
    'Get the current price of a cryptocurrency in a fiat currency.',
    [
      ['coin', 'string', 'Coin symbol.'],
      ['currency', 'string', 'ISO 4217 code.'],
    ],
  ],
  [
    'company_profile',
    'Look up a listed company: sector, headquarters, employees and description.',
    [['symbol', 'string', 'Ticker.']],
  ],
  [
    'calendar_list_events',
    'List the events on a calendar between two dates.',
    [
      ['calendar', 'string', 'Calendar id.'],
      ['start', 'string', 'YYYY-MM-DD.'],
      ['end', 'string', 'YYYY-MM-DD.'],
    ],
  ],
  [
    'calendar_create_event',
    'Create a calendar event with a title, start time and duration.',
    [
      ['title', 'string', 'Event title.'],
      ['start', 'string', 'ISO 8601.'],
      ['minutes', 'number', 'Duration in minutes.'],
    ],
  ],
  [
    'find_meeting_slot',
    'Find the first free meeting slot shared by several attendees.',
    [
      ['attendees', 'string', 'Comma-separated emails.'],
      ['minutes', 'number', 'Meeting length.'],
    ],
  ],
  [
    'public_holidays',
    'List the public holidays of a country in a year.',
    [
      ['country', 'string', 'ISO 3166 code.'],
      ['year', 'number', 'e.g. 2026.'],
    ],
  ],
  [
    'business_days_between',
    'Count the working days between two dates, skipping weekends and holidays.',
    [
      ['start', 'string', 'YYYY-MM-DD.'],
      ['end', 'string', 'YYYY-MM-DD.'],
      ['country', 'string', 'ISO 3166 code.'],
    ],
  ],
  ['geocode_address', 'Turn a street address into latitude and longitude.', [['address', 'string', 'Full address.']]],
  [
    'reverse_geocode',
    'Turn latitude and longitude into the nearest street address.',
    [
      ['lat', 'number', 'Latitude.'],
      ['lon', 'number', 'Longitude.'],
    ],
  ],
  [
    'route_travel_time',
    'Estimate the driving time along roads between two addresses.',
    [
      ['origin', 'string', 'Start address.'],
      ['destination', 'string', 'End address.'],
    ],
  ],
  [
    'nearby_places',
    'Find places of a kind (cafe, pharmacy, …) near a location.',
    [
      ['location', 'string', 'Address or city.'],
      ['kind', 'string', 'Place type.'],
    ],
  ],
  [
    'country_info',
    "Get a country's capital, population, languages and currency.",
    [['country', 'string', 'Country name or code.']],
  ],
  ['city_population', 'Get the latest population estimate of a city.', [['city', 'string', 'City name.']]],
  [
    'elevation_at',
    'Get the ground elevation in metres at a latitude and longitude.',
    [
      ['lat', 'number', 'Latitude.'],
      ['lon', 'number', 'Longitude.'],
    ],
  ],
  ['air_quality', 'Get the air quality index and main pollutant for a city.', [['city', 'string', 'City name.']]],
  [
    'sunrise_sunset',
    'Get sunrise and sunset times for a city on a date.',
    [
      ['city', 'string', 'City name.'],
      ['date', 'string', 'YYYY-MM-DD.'],
    ],
  ],
  [
    'weather_forecast',
    'Get a multi-day weather forecast for a city.',
    [
      ['city', 'string', 'City name.'],
      ['days', 'number', '1 to 10.'],
    ],
  ],
  [
    'flight_status',
    'Get the status, gate and delay of a flight by its number.',
    [
      ['flight', 'string', 'e.g. "AB123".'],
      ['date', 'string', 'YYYY-MM-DD.'],
    ],
  ],
  [
    'search_flights',
    'Search flights between two airports on a date, with prices.',
    [
      ['origin', 'string', 'IATA code.'],
      ['destination', 'string', 'IATA code.'],
      ['date', 'string', 'YYYY-MM-DD.'],
    ],
  ],
  [
    'hotel_search',
    'Search hotels in a city for given dates, with nightly prices.',
    [
      ['city', 'string', 'City name.'],
      ['check_in', 'string', 'YYYY-MM-DD.'],
      ['nights', 'number', 'Number of nights.'],
    ],
  ],
  [
    'translate_text',
    'Translate text into another language.',
    [
      ['text', 'string', 'Text to translate.'],
      ['target', 'string', 'Language code.'],
    ],
  ],
  ['detect_language', 'Detect the language of a piece of text.', [['text', 'string', 'Text.']]],
  ['define_word', 'Look up the dictionary definitions of an English word.', [['word', 'string', 'The word.']]],
  ['spell_check', 'List spelling mistakes in a text with suggested corrections.', [['text', 'string', 'Text.']]],
  ['summarize_url', 'Summarize the article at a web address in a few sentences.', [['url', 'string', 'Page URL.']]],
  ['news_headlines', 'Get the latest news headlines on a topic.', [['topic', 'string', 'Topic.']]],
  [
    'send_email',
    'Send an email to a recipient with a subject and body.',
    [
      ['to', 'string', 'Recipient email.'],
      ['subject', 'string', 'Subject.'],
      ['body', 'string', 'Body text.'],
    ],
  ],
  [
    'send_sms',
    'Send a text message to a phone number.',
    [
      ['phone', 'string', 'E.164 number.'],
      ['message', 'string', 'Text.'],
    ],
  ],
  [
    'post_chat_message',
    'Post a message to a team chat channel.',
    [
      ['channel', 'string', 'Channel name.'],
      ['message', 'string', 'Text.'],
    ],
  ],
  [
    'create_ticket',
    'Open a support ticket with a title, description and priority.',
    [
      ['title', 'string', 'Title.'],
      ['description', 'string', 'Details.'],
      ['priority', 'string', 'low, normal or high.'],
    ],
  ],
  [
    'lookup_customer',
    'Find a customer record by email: name, plan and signup date.',
    [['email', 'string', 'Customer email.']],
  ],
  ['order_status', 'Get the shipping status of an order by its number.', [['order_id', 'string', 'Order number.']]],
  [
    'track_package',
    'Track a parcel by carrier and tracking number.',
    [
      ['carrier', 'string', 'Carrier name.'],
      ['tracking', 'string', 'Tracking number.'],
    ],
  ],
  [
    'product_search',
    'Search the product catalog by keywords, with prices and stock.',
    [['query', 'string', 'Keywords.']],
  ],
  [
    'inventory_level',
    'Get the units in stock of a product at a warehouse.',
    [
      ['sku', 'string', 'Product SKU.'],
      ['warehouse', 'string', 'Warehouse code.'],
    ],
  ],
  [
    'calculate_shipping',
    'Quote the shipping cost of a parcel by weight and destination country.',
    [
      ['weight_kg', 'number', 'Weight in kg.'],
      ['country', 'string', 'ISO 3166 code.'],
    ],
  ],
  [
    'tax_rate',
    'Get the sales tax or VAT rate of a country or region.',
    [['region', 'string', 'Country or region code.']],
  ],
  [
    'loan_payment',
    'Compute the monthly payment of a loan from principal, annual rate and term.',
    [
      ['principal', 'number', 'Amount.'],
      ['annual_rate', 'number', 'Percent.'],
      ['months', 'number', 'Term.'],
    ],
  ],
  [
    'compound_interest',
    'Compute the future value of savings with compound interest.',
    [
      ['principal', 'number', 'Amount.'],
      ['annual_rate', 'number', 'Percent.'],
      ['years', 'number', 'Years.'],
    ],
  ],
  [
    'bmi_calculator',
    'Compute body mass index from height and weight.',
    [
      ['height_cm', 'number', 'Height.'],
      ['weight_kg', 'number', 'Weight.'],
    ],
  ],
  ['nutrition_facts', 'Get calories and macronutrients of a food per 100 g.', [['food', 'string', 'Food name.']]],
  ['recipe_search', 'Find recipes that use given ingredients.', [['ingredients', 'string', 'Comma-separated list.']]],
  ['movie_info', 'Look up a film: year, director, cast and rating.', [['title', 'string', 'Film title.']]],
  ['book_search', 'Search books by title or author, with ISBN and year.', [['query', 'string', 'Title or author.']]],
  ['random_password', 'Generate a random password of a given length.', [['length', 'number', '8 to 64.']]],
  ['qr_code', 'Make a QR code image for a text or link and return its data URL.', [['text', 'string', 'Content.']]],
  [
    'ip_lookup',
    'Get the approximate location and network owner of an IP address.',
    [['ip', 'string', 'IPv4 or IPv6 address.']],
  ],
  [
    'dns_lookup',
    'Resolve the DNS records of a domain name.',
    [
      ['domain', 'string', 'Domain.'],
      ['record', 'string', 'A, AAAA, MX, TXT…'],
    ],
  ],
];

/** FNV-1a, 32-bit: a made-up value that is always the same for the same tool and input. */
function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

function specTool([name, description, params]: Spec): ToolDefinition {
  const shape = Object.fromEntries(
    params.map(([p, type, about]) => [p, (type === 'number' ? z.number() : z.string()).describe(about)]),
  );
  return defineTool({
    name,
    description: description + DEMO,
    args: z.object(shape),
    returns: '{tool, input, value: number, demo: true}',
    demo: true,
    async run(args) {
      return { tool: name, input: args, value: stableHash(`${name}:${JSON.stringify(args)}`) % 10_000, demo: true };
    },
  });
}

export const convertCurrencyTool = defineTool({
  name: 'convert_currency',
  description:
    'Convert an amount of money from one currency to another at the current exchange rate; returns {amount, from, to, rate, result}.' +
    DEMO,
  args: z.object({
    amount: z.number().describe('The amount in the source currency, e.g. 250.'),
    from: z.string().describe('ISO 4217 code of the source currency, e.g. "USD".'),
    to: z.string().describe('ISO 4217 code of the target currency, e.g. "JPY".'),
  }),
  returns: '{amount: number, from: string, to: string, rate: number, result: number, demo: true}',
  demo: true,
  async run({ amount, from, to }) {
    return convertCurrency(amount, from, to);
  },
});

export const cityDistanceTool = defineTool({
  name: 'city_distance',
  description:
    'Get the straight-line (great-circle) distance in kilometres between two cities; returns {from, to, km}.' + DEMO,
  args: z.object({
    from: z.string().describe('First city, e.g. "Paris".'),
    to: z.string().describe('Second city, e.g. "Berlin".'),
  }),
  returns: '{from: string, to: string, km: number, demo: true}',
  demo: true,
  async run({ from, to }) {
    return cityDistance(from, to);
  },
});

/** The whole catalog, the two tools the task needs among the others (not first, not last). */
export const DEMO_CATALOG: readonly ToolDefinition[] = [
  ...SPECS.slice(0, 3).map(specTool),
  convertCurrencyTool,
  ...SPECS.slice(3, 20).map(specTool),
  cityDistanceTool,
  ...SPECS.slice(20).map(specTool),
];
