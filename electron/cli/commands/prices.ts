/**
 * `parallax prices`: the price table every run is costed with (USD per 1M tokens), and its edits. The table
 * lives in the data folder (prices.json) once edited; runs record the price they started with, so an edit
 * changes the cost of later runs only.
 */
import type { Command } from 'commander';
import { formatRate } from '../../../shared/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../../shared/price-table.js';
import { LOCAL_PRESETS, PriceTableError, type PriceEntry, type PriceTable } from '../../../shared/pricing.js';
import { resolveDataDir } from '../../host/data-dir.js';
import { say, sayJson } from '../terminal.js';

interface SetFlags {
  input: string;
  output: string;
  cachedInput?: string;
  cacheWrite?: string;
  source?: string;
}

export function register(program: Command): void {
  const prices = program
    .command('prices')
    .description('show the price table runs are costed with (USD per 1M tokens); set, remove or reset prices')
    .option('--json', 'print the table as JSON')
    .action((flags: { json?: boolean }) => listCommand(flags));
  prices
    .command('set <model>')
    .description("set a model's price, USD per 1M tokens (dated today); later runs of that model use it")
    .requiredOption('--input <usd>', 'input (prompt) tokens not served from the cache')
    .requiredOption('--output <usd>', 'output (completion) tokens, reasoning included')
    .option('--cached-input <usd>', "prompt tokens read from the provider's cache (default: the input rate)")
    .option('--cache-write <usd>', "prompt tokens written to the provider's cache (default: the input rate)")
    .option('--source <text>', 'where the price comes from, kept with it')
    .action((model: string, flags: SetFlags) => setCommand(model, flags));
  prices
    .command('remove <model>')
    .description('remove a model\'s price: its later runs show "no price"')
    .action((model: string) => removeCommand(model));
  prices
    .command('reset')
    .description(
      `go back to the default table (prices of ${DEFAULT_PRICE_TABLE.date}); your file is kept as prices.json.bak`,
    )
    .action(() => resetCommand());
}

const store = async () => new (await import('../../host/price-store.js')).PriceStore(resolveDataDir());

async function listCommand(flags: { json?: boolean }): Promise<void> {
  const s = await store();
  const { table, custom } = await s.load();
  if (flags.json) {
    sayJson({ path: s.path, custom, defaultDate: DEFAULT_PRICE_TABLE.date, table });
    return;
  }
  const where = custom
    ? `your table, ${s.path}`
    : `the default table shipped with Parallax (it is copied to ${s.path} when you edit a price)`;
  const out = [`Prices of ${table.date}, USD per 1M tokens — ${where}`, '', ...tableLines(table), ''];
  out.push(
    `Local models (${LOCAL_PRESETS.join(', ')}) have no API price unless you set one; the simulated model is never priced; a model not listed shows "no price", never $0.`,
  );
  out.push(
    'A price the provider reports itself (OpenRouter) is used instead of the table. `parallax prices --json` shows where each price comes from.',
  );
  if (custom && table.date < DEFAULT_PRICE_TABLE.date) {
    out.push(
      `This Parallax ships newer prices (${DEFAULT_PRICE_TABLE.date}); \`parallax prices reset\` takes them (your file is kept as prices.json.bak).`,
    );
  }
  say(`${out.join('\n')}`);
}

function tableLines(table: PriceTable): string[] {
  const rows = table.models.map((m: PriceEntry) => [
    m.model,
    formatRate(m.input),
    m.cachedInput === null ? '= input' : formatRate(m.cachedInput),
    m.cacheWrite === null ? '= input' : formatRate(m.cacheWrite),
    formatRate(m.output),
    m.date ? `set ${m.date}` : table.date,
  ]);
  const head = ['model', 'input', 'cached input', 'cache write', 'output', 'date'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

async function setCommand(model: string, flags: SetFlags): Promise<void> {
  const s = await store();
  const table = await s
    .set({
      model,
      input: flags.input,
      output: flags.output,
      cachedInput: flags.cachedInput,
      cacheWrite: flags.cacheWrite,
      source: flags.source,
    })
    .catch((err: unknown) => {
      if (!(err instanceof PriceTableError)) throw err;
      throw new Error(
        `The price of ${model} was not set — ${err.message}. Rates are USD per 1M tokens, e.g. parallax prices set gpt-4.1-mini --input 0.40 --output 1.60 --cached-input 0.10`,
      );
    });
  const entry = table.models.find((m) => m.model === model.trim())!;
  const cached = entry.cachedInput === null ? 'cached = input' : `${formatRate(entry.cachedInput)} cached`;
  const write = entry.cacheWrite === null ? '' : `, ${formatRate(entry.cacheWrite)} cache write`;
  say(
    `${entry.model}: ${formatRate(entry.input)} in, ${cached}${write}, ${formatRate(entry.output)} out per 1M tokens (set ${entry.date}), in ${s.path}.\nRuns started from now on record this price; earlier runs keep theirs.`,
  );
}

async function removeCommand(model: string): Promise<void> {
  const s = await store();
  await s.remove(model);
  say(`Removed the price of ${model.trim()} from ${s.path}; its later runs show "no price".`);
}

async function resetCommand(): Promise<void> {
  const { backup } = await (await store()).reset();
  say(
    `Back to the default prices of ${DEFAULT_PRICE_TABLE.date}.${backup ? ` Your table was kept as ${backup}.` : ''}`,
  );
}
