/** calc: one exact calculation (the calculator tool, or computing in code). */
import type { Validation } from '../../../shared/step-event.js';
import { searchCalc } from '../../sim/policies/react-search.js';
import { codeCalc, reactCalc } from '../../sim/policies/weather-calc.js';
import { numbersIn } from '../numbers-in.js';
import { defineTask } from '../task.js';

export const CALC_EXPECTED = 123 * 456 + 789;

export const calc = defineTask({
  id: 'calc',
  validate: (answer) => validateCalc(answer),
  sim: {
    detect: (text) => {
      const expr = /\b(?:what is|calculate|compute|evaluate)\s+([\d\s+\-*/^().×÷]*\d[\d\s+\-*/^().×÷]*)\??/i.exec(
        text,
      )?.[1];
      if (!expr || !/\d\s*[+\-*/^×÷]\s*[\d(]/.test(expr)) return null;
      return { expression: expr.replace(/×/g, '*').replace(/÷/g, '/').replace(/\s+/g, ' ').trim() };
    },
    react: (conv, p) => reactCalc(conv, p.expression),
    code: (conv, p) => codeCalc(conv, p.expression),
    modes: { 'react-search': (conv, p) => searchCalc(conv, p.expression) },
  },
});

function validateCalc(answer: string): Validation {
  const found = numbersIn(answer);
  const ok = found.includes(CALC_EXPECTED);
  return { ok, detail: `Expected ${CALC_EXPECTED}; found ${found.length ? found.join(', ') : 'no number'}.` };
}
