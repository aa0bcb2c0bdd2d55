/**
 * The built-in tasks' cards: ids, titles and prompts, which every runtime shows. What a task does (its
 * workspace, tools, validator, the simulated model's policies) is its definition in electron/tasks/.
 */
import { TASK_SETS } from './task-set-suites.js';

export interface TaskInfo {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** What the task exercises, shown beside it in the picker. */
  readonly about: string;
  /** The task reads pages of the local fixture server (its URL may appear in the text as {{FIXTURE_URL}}). */
  readonly servesPages?: boolean;
  /** Its web_search reads the fixture server's own index (its facts exist nowhere else), whatever backend the settings name. */
  readonly ownSearchIndex?: boolean;
}

const CARDS = [
  {
    id: 'log-stats',
    title: 'Log statistics',
    text:
      'For every .txt file in the current directory, count its total lines and the lines that contain ERROR. ' +
      'Report one line per file, then name the file with the most ERROR lines.',
    about: 'Batch work over five files: many tool calls, large results.',
  },
  {
    id: 'time-and-title',
    title: 'Time and page title',
    text: 'What time is it now in Asia/Shanghai? Then fetch the page at {{FIXTURE_URL}} and tell me its title.',
    about: 'Two independent calls: parallel tool calls vs. hidden tools found by search.',
    servesPages: true,
  },
  {
    id: 'weather-f',
    title: 'Weather in Fahrenheit',
    text: 'What is the temperature in Beijing right now? Convert it to Fahrenheit.',
    about: 'Two dependent calls: get_weather, then calculator.',
  },
  {
    id: 'calc',
    title: 'Arithmetic',
    text: 'What is 123 * 456 + 789?',
    about: 'One exact calculation: calculator tool vs. computing in code.',
  },
  {
    id: 'config-lookup',
    title: 'Config lookup',
    text: 'Which port does the server listen on, according to config.json? Answer with the number.',
    about:
      'A single lookup, where ReAct should win; measured, Code Mode still sends fewer prompt tokens (ReAct resends all tool schemas).',
  },
  {
    id: 'write-errors',
    title: 'Write the ERROR lines',
    text: 'Copy every line of service.log that contains ERROR, in order, into a new file errors.log, then say how many lines you wrote.',
    about:
      'Writing a file: ReAct reads the log and sends its lines back in write_file; one program filters and writes unseen.',
  },
  {
    id: 'missing-file',
    title: 'Recover from a missing file',
    text: 'Read release-notes.txt and tell me the version number of the latest release.',
    about:
      'Recovering from a tool error: the named file is elsewhere; its real error leads to listing folders or a search program.',
  },
  {
    id: 'owner-chain',
    title: 'Owner of the noisiest service',
    text:
      'Find the service with the most ERROR entries in incidents.log, then open its config in services/<service>.json ' +
      "to get the owner id, then look that person up in people/<owner id>.json. Tell me the owner's full name.",
    about:
      'A dependent chain of three reads: ReAct pays a round trip per hop, resending the log each time; one program follows the chain, so Code Mode should win.',
  },
  {
    id: 'tool-catalog',
    title: 'Two tools out of sixty-five',
    text: 'Convert 250 US dollars to Japanese yen, and tell me the straight-line distance from Paris to Berlin in kilometres.',
    about:
      'A catalog of 57 demo tools joins the run: ReAct sends all 65 schemas every step, tool search and Code Mode find the two needed, so ReAct should lose.',
  },
  {
    id: 'web-lookup',
    title: 'Look it up on the web',
    text: 'Search the web to find the year the Marrow Point Lighthouse was first lit. Answer with the year and the URL of the page you found it on.',
    about:
      'Search, open the right result, answer with its source (an offline index served locally): a short dependent chain where each page read is resent in ReAct.',
    servesPages: true,
    ownSearchIndex: true,
  },
] as const satisfies readonly TaskInfo[];

/** A built-in task's id: electron/tasks/index.ts must define each one (the compiler checks it there). */
export type BuiltinTaskId = (typeof CARDS)[number]['id'];

export const BUILTIN_TASKS: readonly TaskInfo[] = CARDS;

/**
 * The cards of the task sets' tasks (shared/task-set-suites.ts): built-in tasks too, found by id or words and
 * run as any task, but listed by their set (a suite, `parallax tasks`) rather than one by one beside the others.
 */
export const TASK_SET_CARDS: readonly TaskInfo[] = TASK_SETS.flatMap((set) =>
  set.tasks().map((t) => ({
    id: t.id,
    title: t.title,
    text: t.text,
    about: `${set.label}: ${set.domains.find((d) => d.id === t.domain)?.title ?? t.domain}`,
  })),
);

export function findTask(id: string): TaskInfo | undefined {
  return BUILTIN_TASKS.find((t) => t.id === id) ?? TASK_SET_CARDS.find((t) => t.id === id);
}

export const FIXTURE_URL_PLACEHOLDER = '{{FIXTURE_URL}}';

/** The built-in task a user's input names: its id, or its whole text typed out (so it still gets validated). */
export function findTaskByInput(input: string): TaskInfo | undefined {
  const trimmed = input.trim();
  return (
    findTask(trimmed) ?? BUILTIN_TASKS.find((t) => t.text === trimmed) ?? TASK_SET_CARDS.find((t) => t.text === trimmed)
  );
}

/** Whether a task (built-in id or free text) needs the local fixture pages to be served. */
export function needsFixtureServer(taskInput: string): boolean {
  const task = findTaskByInput(taskInput);
  return task?.servesPages === true;
}
