/**
 * HTML escaping for reports. Every interpolation in the `html` tag is escaped unless it is already SafeHtml,
 * so text from a model or a tool cannot become markup by forgetting a call. No dependency: the five
 * characters below are the whole job, and the tests cover them in text and attribute positions.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for use in element content or in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A string already known to be safe markup (built by `html` or `raw`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: literal parts are trusted, every `${value}` is escaped (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Mark trusted markup (CSS, generated SVG numbers). Never pass model or tool text here. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
