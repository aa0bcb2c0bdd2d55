/** Numbers written in an answer, for the validators (its own file: the task validators and validate.ts both read it). */

/** Numbers written in the text: "1,234" → 1234, "-3.5" → -3.5. */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)].map((m) =>
    Number(m[0].replace(/,/g, '')),
  );
}
