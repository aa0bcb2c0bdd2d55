/**
 * The simulated model's last reply on an M3ToolEval task: "Answer: …" as the task's lines ask, the value written
 * as the model read it (Python's str() of a result, or what a program printed), rounded to two decimals when
 * the instruction asks for 'xx.xx'. The simulated label comes first, so the harness's reading of the answer
 * (everything after "Answer:") is the answer alone.
 */
import { answer, type SimReply } from '../../../sim/types.js';
import { SIM_LABEL } from '../../../sim/policies/common.js';
import { str, type PyValue } from '../py-value.js';
import type { AnswerStyle } from './plan.js';
import type { Conversation } from '../../../sim/policies/conversation.js';

export function answerLine(value: PyValue, style: AnswerStyle = 'value'): string {
  if (style === 'cents') {
    const n = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : Number(str(value));
    if (Number.isFinite(n)) return n.toFixed(2);
  }
  return str(value);
}

/**
 * The answer; once the harness has said an answer was wrong, a value the instruction asked rounded is given as
 * it came instead (the model tries the other way of writing it), anything else as before.
 */
export function m3Answer(
  value: PyValue,
  style: AnswerStyle | undefined,
  conv: Pick<Conversation, 'feedback'>,
): SimReply {
  const line = conv.feedback.length > 0 && style === 'cents' ? str(value) : answerLine(value, style);
  return answer(`${SIM_LABEL}\nAnswer: ${line}`);
}

/** A run the plan could not finish: said plainly, with no "Answer:" to be scored as one. */
export function m3Failure(reason: string): SimReply {
  return answer(`${reason}\n\n${SIM_LABEL}`);
}
