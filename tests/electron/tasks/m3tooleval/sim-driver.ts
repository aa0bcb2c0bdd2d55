/**
 * Plays the simulated model's M3ToolEval policies against the ported tools without the engine: a ReAct reply's
 * calls run as direct calls (each result Python's str(), an error as "Error: …"), a JavaScript program runs in
 * node:vm with each tool a function (a test harness only: the programs are the simulated model's own). The
 * conversation is the wire format the simulated server reads, so the policies see what they see in a run.
 */
import vm from 'node:vm';
import { readConversation } from '../../../../electron/sim/policies/conversation.js';
import type { SimReply, WireMessage, WireTool } from '../../../../electron/sim/types.js';
import { taskText, type M3Task } from '../../../../electron/tasks/m3tooleval/m3-tasks.js';
import { detectM3, m3Code, m3React } from '../../../../electron/tasks/m3tooleval/sim/index.js';
import { PyResult, shownResult } from '../../../../electron/tasks/m3tooleval/tool-definitions.js';
import { m3ToolDefinitions } from '../../../../electron/tasks/m3tooleval/tool-definitions.js';
import { invokeTool } from '../../../../electron/engine/tools/index.js';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { fromJson, PyError, toJson } from '../../../../electron/tasks/m3tooleval/py-value.js';
import { answerFeedback } from '../../../../electron/tasks/m3tooleval/score.js';
import type { M3Session } from '../../../../electron/tasks/m3tooleval/m3-tool.js';

export interface Played {
  readonly answer: string;
  /** Model replies, the last one the answer. */
  readonly turns: number;
  readonly calls: number;
}

const ctx = { workspace: '/nonexistent', settings: DEFAULT_SETTINGS, signal: new AbortController().signal };

/** The harness's protocol: a wrong answer is told so and the model goes on, until it is right or turns run out. */
function judged(task: M3Task, text: string, turn: number, maxTurns: number, messages: WireMessage[]): boolean {
  const feedback = turn < maxTurns ? answerFeedback(text, task.expected) : null;
  if (!feedback) return true;
  messages.push({ role: 'assistant', content: text }, { role: 'user', content: feedback });
  return false;
}

export async function playReact(task: M3Task, trial = 1, maxTurns = 10): Promise<Played> {
  const tools = m3ToolDefinitions(task.domain.tools);
  const wireTools: WireTool[] = tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description },
  }));
  const messages: WireMessage[] = [{ role: 'user', content: taskText(task) }];
  let calls = 0;
  for (let turn = 1; turn <= maxTurns; turn++) {
    const reply: SimReply = m3React(readConversation(messages, wireTools, trial), detectM3(taskText(task))!);
    if (reply.kind === 'text') {
      if (judged(task, reply.text, turn, maxTurns, messages)) return { answer: reply.text, turns: turn, calls };
      continue;
    }
    const ids = reply.calls.map((_c, i) => `call_${turn}_${i}`);
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: reply.calls.map((c, i) => ({
        id: ids[i],
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const [i, c] of reply.calls.entries()) {
      calls++;
      const tool = tools.find((t) => t.name === c.name)!;
      let text: string;
      try {
        const value = await invokeTool(tool, JSON.parse(c.arguments), ctx);
        text = tool.resultText!(value as never);
      } catch (error) {
        text = `Error: ${(error as Error).message}`;
      }
      messages.push({ role: 'tool', tool_call_id: ids[i], content: text });
    }
  }
  return { answer: '', turns: maxTurns, calls };
}

/** Runs a JavaScript program with the domain's tools as functions; what it printed, then any error. */
function runJs(code: string, task: M3Task, session: M3Session): { output: string; calls: number } {
  let output = '';
  let calls = 0;
  const g: Record<string, unknown> = {
    print: (...xs: unknown[]) => {
      output += xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ') + '\n';
    },
  };
  for (const t of task.domain.tools) {
    g[t.name] = (...args: unknown[]) => {
      calls++;
      try {
        return toJson(t.run(args.map(fromJson), session));
      } catch (error) {
        if (error instanceof PyError) throw new Error(`${error.pyType}: ${error.message}`);
        throw error;
      }
    };
  }
  try {
    vm.runInNewContext(code, g, { timeout: 30_000 }); // a stuck program ends; a busy machine never does
  } catch (error) {
    output += `Error at line 1: ${(error as Error).message}`;
  }
  return { output, calls };
}

export function playCodeJs(task: M3Task, trial = 1, maxTurns = 10): Played {
  const session: M3Session = {};
  let calls = 0;
  return playCode(
    task,
    'javascript',
    (code) => {
      const run = runJs(code, task, session);
      calls += run.calls;
      return run.output;
    },
    trial,
    maxTurns,
    () => calls,
  ) as Played;
}

/**
 * The Code Mode policy against any runner of its programs (`run` returns the text the model gets back); its
 * run_code description names the language, as the modes' do. Synchronous runners give a synchronous result.
 */
export function playCode(
  task: M3Task,
  language: 'javascript' | 'python',
  run: (code: string) => string,
  trial?: number,
  maxTurns?: number,
  calls?: () => number,
): Played;
export function playCode(
  task: M3Task,
  language: 'javascript' | 'python',
  run: (code: string) => Promise<string>,
  trial?: number,
  maxTurns?: number,
  calls?: () => number,
): Promise<Played>;
export function playCode(
  task: M3Task,
  language: 'javascript' | 'python',
  run: (code: string) => string | Promise<string>,
  trial = 1,
  maxTurns = 10,
  calls: () => number = () => 0,
): Played | Promise<Played> {
  const wireTools: WireTool[] = [
    {
      type: 'function',
      function: { name: 'run_code', description: `Run a ${language === 'python' ? 'Python' : 'JavaScript'} program.` },
    },
  ];
  const messages: WireMessage[] = [{ role: 'user', content: taskText(task) }];
  const step = (turn: number): Played | Promise<Played> => {
    if (turn > maxTurns) return { answer: '', turns: maxTurns, calls: calls() };
    const reply = m3Code(readConversation(messages, wireTools, trial), detectM3(taskText(task))!);
    if (reply.kind === 'text')
      return judged(task, reply.text, turn, maxTurns, messages)
        ? { answer: reply.text, turns: turn, calls: calls() }
        : step(turn + 1);
    const c = reply.calls[0];
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `p${turn}`, type: 'function', function: { name: 'run_code', arguments: c.arguments } }],
    });
    const after = (output: string) => {
      messages.push({ role: 'tool', tool_call_id: `p${turn}`, content: output });
      return step(turn + 1);
    };
    const output = run(JSON.parse(c.arguments).code);
    return typeof output === 'string' ? after(output) : output.then(after);
  };
  return step(1);
}

export { PyResult, shownResult };
