/**
 * A start error that a composer field can fix names that field in its last sentence ("Field to fix: API key."),
 * readable as it is in the CLI, and read back by the page to highlight the field. Errors cross IPC and the
 * WebSocket as text only, so the field travels inside it.
 */
export type StartField = 'baseUrl' | 'apiKey' | 'model';

const NAMES: Record<StartField, string> = { baseUrl: 'base URL', apiKey: 'API key', model: 'model' };

/** The sentence that ends an error a field can fix. */
export function fieldToFix(field: StartField): string {
  return `Field to fix: ${NAMES[field]}.`;
}

const FLAGS: Record<StartField, string> = { baseUrl: '--base-url', apiKey: '--api-key-env', model: '--model' };

/**
 * The host's advice that only the desktop app can follow ("Enter it under Model in the composer"), as a CLI user
 * can act on it: the environment variable, or the flag that names one.
 */
const COMPOSER_ADVICE: readonly [RegExp, string][] = [
  [
    /Enter it under Model in the composer \(desktop app\), or set the environment variable (\S+) for the CLI and the web host/g,
    'Set the environment variable $1 (export $1=…)',
  ],
  [
    /Enter it under Model in the composer \(desktop app\)/g,
    'Name the environment variable that holds it with --api-key-env (in --variants: "apiKeyEnv")',
  ],
  [
    /Enter it under Model in the composer, or set the provider's key variable for the CLI/g,
    "Set the provider's key variable (see --api-key-env)",
  ],
];

/** A start error as the CLI says it: the flag to fix instead of the composer's field. */
export function inCliWords(message: string): string {
  const field = startErrorField(message);
  const variant = /^Variant \d+ \(/.test(message);
  // A column's error is fixed in the column (the host prefixes it "Variant N (label): "), not in the comparison's flag.
  const flag =
    field && variant && field === 'model'
      ? '--models or --variants'
      : field && variant && field === 'apiKey'
        ? '--variants (the column\'s "apiKeyEnv")'
        : field
          ? FLAGS[field]
          : null;
  const said = COMPOSER_ADVICE.reduce((text, [pattern, cli]) => text.replace(pattern, cli), message);
  return flag ? said.replace(/Field to fix: [A-Za-z ]+\.\s*$/, `Flag to fix: ${flag}.`) : said;
}

/** The field a start error names in its last sentence, or null. */
export function startErrorField(message: string): StartField | null {
  const m = /Field to fix: ([A-Za-z ]+)\.\s*$/.exec(message);
  if (!m) return null;
  const found = (Object.keys(NAMES) as StartField[]).find((f) => NAMES[f] === m[1]);
  return found ?? null;
}
