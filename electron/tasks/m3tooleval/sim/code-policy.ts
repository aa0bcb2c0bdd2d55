/**
 * A plan (plan.ts) done the Code Mode way: the whole plan as one program for run_code, in the language its
 * description asks for, then the answer read off what the program printed. Some trials after the first look
 * at the first tool's result in a short program before writing the whole one, as models often do.
 */
import { callTools, type SimReply } from '../../../sim/types.js';
import { programOutput, trialDraws } from '../../../sim/policies/common.js';
import { lastCall, type Conversation } from '../../../sim/policies/conversation.js';
import { programLanguage } from '../../../sim/policies/programs.js';
import { m3Answer, m3Failure } from './answer.js';
import type { Plan } from './plan.js';
import { programOf } from './program.js';

/** The answer as the model writes it from a printed value: JavaScript's true/false as the instruction's True/False. */
function fromPrinted(printed: string, instruction: string): string {
  if (/'True' or 'False'/.test(instruction) && /^(true|false)$/.test(printed))
    return printed === 'true' ? 'True' : 'False';
  return printed;
}

export function codePlan(conv: Conversation, plan: Plan, what: string): SimReply {
  const lang = programLanguage(conv);
  const full = programOf(plan, lang);
  const looksFirst =
    conv.trial > 1 && plan.steps.filter((s) => s.tool).length > 1 && trialDraws(conv.trial, `m3-code-${what}`)() < 0.25;
  const ran = lastCall(conv, 'run_code', (a) => a.code === full);
  if (!ran) {
    const peek = programOf(plan, lang, 1);
    if (looksFirst && !lastCall(conv, 'run_code', (a) => a.code === peek))
      return callTools([{ name: 'run_code', args: { code: peek } }]);
    return callTools([{ name: 'run_code', args: { code: full } }]);
  }
  const out = programOutput(ran.result);
  const printed = out.printed.trim().split('\n').pop() ?? '';
  if (out.error || printed === '')
    return m3Failure(`My program did not give the answer: ${out.error ?? 'it printed nothing'}`);
  return m3Answer(fromPrinted(printed, conv.task), plan.style, conv);
}
