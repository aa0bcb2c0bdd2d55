/**
 * A plan (plan.ts) done the ReAct way: each step's tool is called as soon as its inputs are known, the steps
 * ready together in one reply as parallel calls, and every later step reads the real results of the earlier
 * ones as the tools returned them (Python's str(), read back as a Python literal). Some trials after the first
 * call one tool per reply, as models that do not use parallel calls do.
 */
import type { PlannedCall, SimReply } from '../../../sim/types.js';
import { trialDraws } from '../../../sim/policies/common.js';
import type { CallRecord, Conversation } from '../../../sim/policies/conversation.js';
import type { M3Param, M3Tool } from '../m3-tool.js';
import { literalEval } from '../py-expr.js';
import { floatRepr, PyDict, PyError, PyTuple, str, type PyValue } from '../py-value.js';
import { evaluate, PlanError, stepRefs, type Env, type Plan, type Step } from './plan.js';
import { m3Answer, m3Failure } from './answer.js';

/** A tool's result text read as the model reads it: a Python literal where it is one, else the text itself. */
export function readResult(text: string): PyValue {
  try {
    return literalEval(text.trim());
  } catch (error) {
    if (error instanceof PyError) return text;
    throw error;
  }
}

/** JSON as the model writes it: floats the way it read them (7500.0), a str parameter always a string. */
export function argJson(v: PyValue, type: M3Param['type'] = 'any'): string {
  if (type === 'str' && typeof v !== 'string') return JSON.stringify(str(v));
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? floatRepr(v) : 'null';
  if (Array.isArray(v)) return `[${v.map((x) => argJson(x, type)).join(', ')}]`;
  if (v instanceof PyTuple) return `[${v.items.map((x) => argJson(x, type)).join(', ')}]`;
  return `{${(v as PyDict).entries.map(([k, x]) => `${JSON.stringify(str(k))}: ${argJson(x)}`).join(', ')}}`;
}

/** The call's arguments as a JSON object of the tool's parameters (a variadic one takes the rest as a list). */
export function callArguments(tool: M3Tool, values: readonly PyValue[]): string {
  const fields = tool.params.map((p, i) => {
    const value = p.variadic
      ? `[${values
          .slice(i)
          .map((v) => argJson(v, p.type))
          .join(', ')}]`
      : argJson(values[i] ?? null, p.type);
    return `${JSON.stringify(p.name)}: ${value}`;
  });
  return `{${fields.join(', ')}}`;
}

function sameArgs(recorded: Record<string, unknown>, planned: string): boolean {
  return JSON.stringify(recorded) === JSON.stringify(JSON.parse(planned));
}

export function reactPlan(conv: Conversation, plan: Plan, tools: readonly M3Tool[], what: string): SimReply {
  const env = new Map<string, PyValue>();
  const skipped = new Set<string>();
  const done = new Set<string>();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const recorded = conv.calls.filter((c) => byName.has(c.name));
  let cursor = 0;
  const oneAtATime = conv.trial > 1 && trialDraws(conv.trial, `m3-react-${what}`)() < 0.25;

  const ready = (s: Step) => !done.has(s.name) && stepRefs(s).every((r) => done.has(r));
  for (;;) {
    let progressed = false;
    for (const s of plan.steps) {
      if (!ready(s) || s.tool) continue;
      done.add(s.name);
      progressed = true;
      if (s.args.some((a) => a.k === 'ref' && skipped.has(a.name))) skipped.add(s.name);
      else env.set(s.name, evaluate({ k: 'op', op: s.op!, args: s.args }, env));
    }
    if (progressed) continue;
    const batch: { step: Step; call: PlannedCall }[] = [];
    for (const s of plan.steps) {
      if (!ready(s) || !s.tool) continue;
      if (s.when && evaluate(s.when, env) !== true) {
        done.add(s.name);
        skipped.add(s.name);
        progressed = true;
        continue;
      }
      const values = s.args.flatMap((a, i) => {
        const v = evaluate(a, env);
        return s.spread && i === s.args.length - 1 ? [...(Array.isArray(v) ? v : [v])] : [v];
      });
      batch.push({ step: s, call: { name: s.tool, arguments: callArguments(byName.get(s.tool)!, values) } });
    }
    if (progressed) continue;
    if (batch.length === 0) break;
    const missing: PlannedCall[] = [];
    for (const { step, call } of batch) {
      const at = recorded.findIndex((c, i) => i >= cursor && c.name === call.name && sameArgs(c.args, call.arguments));
      if (at < 0) {
        missing.push(call);
        continue;
      }
      const result = (recorded[at] as CallRecord).result ?? '';
      cursor = at + 1;
      if (/^Error\b/.test(result.trim())) return m3Failure(`${call.name} failed: ${result.trim().split('\n')[0]}`);
      env.set(step.name, readResult(result));
      done.add(step.name);
    }
    if (missing.length > 0) {
      const calls = oneAtATime ? missing.slice(0, 1) : missing;
      return { kind: 'tools', text: '', calls };
    }
  }
  try {
    return m3Answer(evaluate(plan.answer, env), plan.style, conv);
  } catch (error) {
    if (error instanceof PyError || error instanceof PlanError)
      return m3Failure(`I could not work out the answer from the results: ${error.message}`);
    throw error;
  }
}

export type { Env };
