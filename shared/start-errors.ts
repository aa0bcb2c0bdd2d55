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

/** A start error as the CLI says it: the flag to fix instead of the composer's field. */
export function inCliWords(message: string): string {
  const field = startErrorField(message);
  // A column's error is fixed in the column (the host prefixes it "Variant N (label): "), not in the comparison's flag.
  const flag = field && /^Variant \d+ \(/.test(message) && field === 'model' ? '--models or --variants' : field ? FLAGS[field] : null;
  return flag ? message.replace(/Field to fix: [A-Za-z ]+\.\s*$/, `Flag to fix: ${flag}.`) : message;
}

/** The field a start error names in its last sentence, or null. */
export function startErrorField(message: string): StartField | null {
  const m = /Field to fix: ([A-Za-z ]+)\.\s*$/.exec(message);
  if (!m) return null;
  const found = (Object.keys(NAMES) as StartField[]).find((f) => NAMES[f] === m[1]);
  return found ?? null;
}
