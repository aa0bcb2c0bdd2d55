/**
 * One run of an agent column: the user's program started in the run's workspace copy, its model requests
 * recorded through the run's recording proxy (agent-proxy.ts, agent-steps.ts). The program gets run_shell's
 * containment (sandbox/shell-runner.ts): a cleared environment (the column's env, the task, the model, the run
 * id and the proxy's URLs with a per-run token; never the provider's key), its whole process tree ended with
 * the run, the time limit, cancel, and under bubblewrap no network but its proxy: the proxy then listens on a
 * Unix socket bound into the sandbox, and a small bridge inside turns 127.0.0.1:PORT into that socket.
 * Without bubblewrap it runs as a plain process in a session of its own and can reach whatever this user can
 * (files, network); run-started's shellSandbox says which.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_TIMEOUT_MS, type AgentCommand, type AgentLaunch } from '../../../shared/agent-command.js';
import type { RunSpec } from '../../../shared/run-spec.js';
import type { EventRecorder } from '../event-recorder.js';
import type { LoopResult } from '../loop.js';
import { NO_POLICY_MESSAGE } from '../loop.js';
import type { ChatClient } from '../provider/chat-client.js';
import { runShellCommand, type ShellRun } from '../sandbox/shell-runner.js';
import {
  SANDBOX_PATH,
  shellSandbox,
  UNSHARE_NOTE,
  type SandboxBind,
  type ShellSandboxInfo,
} from '../sandbox/shell-sandbox.js';
import { DEFAULT_TOOL_LIMITS } from '../tools/limits.js';
import { resolveAgentLaunch } from './agent-launch.js';
import { startAgentProxy } from './agent-proxy.js';
import { isSystemPath } from './launch/visible-paths.js';
import { AgentSteps } from './agent-steps.js';

/** Bytes kept of the agent's standard output (its answer) and of its standard error. */
export const AGENT_OUTPUT_BYTES = 1024 * 1024;
/** Characters of standard error quoted when the program fails. */
const STDERR_TAIL = 2000;
/** The port the bridge listens on inside the sandbox's own network namespace. */
const BRIDGE_PORT = 8787;
/** Processes the agent may have at once (it runs commands of its own). */
const AGENT_MAX_PROCESSES = 256;

/**
 * Inside the sandbox: listen on 127.0.0.1:PORT, carry each connection to the proxy's socket, run the agent,
 * and exit with its status (the namespace's init then ends whatever the agent left behind).
 */
const BRIDGE = [
  "const net=require('net'),{spawn}=require('child_process');",
  'const [port,sock,...argv]=process.argv.slice(1);',
  'const srv=net.createServer((c)=>{const u=net.connect(sock);c.pipe(u);u.pipe(c);c.on("error",()=>u.destroy());u.on("error",()=>c.destroy());});',
  'srv.listen(Number(port),"127.0.0.1",()=>{const ch=spawn(argv[0],argv.slice(1),{stdio:"inherit"});',
  'ch.on("error",(e)=>{process.stderr.write("could not start "+argv[0]+": "+e.message+"\\n");process.exit(127);});',
  'ch.on("exit",(code,sig)=>process.exit(code===null?128:code));});',
].join('');

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface AgentRunOptions {
  readonly spec: RunSpec & { readonly agent: AgentCommand };
  readonly client: ChatClient;
  readonly recorder: EventRecorder;
  readonly signal: AbortSignal;
  /** Default: what shellSandbox() found (tests pass one). */
  readonly sandbox?: ShellSandboxInfo;
}

export async function runAgent(opts: AgentRunOptions): Promise<LoopResult> {
  const { spec, client, recorder } = opts;
  // Without bubblewrap the agent must reach its proxy on the host's loopback: no network namespace of its own,
  // but a user namespace where unshare can make one, so no process outside it (the host's, with a key in its
  // environment or memory) can be read through /proc.
  const found = opts.sandbox ?? shellSandbox();
  const info: ShellSandboxInfo =
    found.kind === 'none' && found.unshare ? { ...found, reason: found.reason.replace(UNSHARE_NOTE, '') } : found;
  const namespaced = info.kind === 'bubblewrap';
  const startedAt = Date.now();
  // The host resolves it where the user's environment is; a spec made elsewhere (tests, the bench) here.
  const launch = spec.agentLaunch ?? (await resolveAgentLaunch(spec.agent, { env: process.env }));
  const token = `px-run-${randomBytes(24).toString('hex')}`;
  // Ends the program when the run must stop for a reason of its own (the step limit), or on cancel.
  const stopper = new AbortController();
  const onAbort = () => stopper.abort(opts.signal.reason);
  opts.signal.addEventListener('abort', onAbort, { once: true });
  if (opts.signal.aborted) onAbort();
  const steps = new AgentSteps(
    spec,
    client,
    recorder,
    stopper.signal,
    { kind: info.kind, reason: agentReach(info, launch) },
    () => setTimeout(() => stopper.abort('max-steps'), 50),
  );
  const socketDir = namespaced ? realpathSync(mkdtempSync(path.join(tmpdir(), 'parallax-agent-'))) : null;
  const proxy = await startAgentProxy(
    token,
    {
      chat: (req) => steps.chat(req),
      other: (n) => {
        steps.begin();
        recorder.emit({
          type: 'run-warning',
          message: `The agent sent ${n.method} ${n.path} (${n.bytes} bytes), which is not a step: the proxy answered ${n.status}. ${n.reason}`,
        });
      },
    },
    socketDir ? { socket: path.join(socketDir, 'proxy.sock') } : { port: 0 },
  );
  const base = `http://127.0.0.1:${namespaced ? BRIDGE_PORT : proxy.port}`;
  // The interpreter's own bin first, so what the agent starts by name is the same installation.
  const searchPath = [...launch.pathDirs, SANDBOX_PATH].join(':');
  const env: Record<string, string> = {
    PATH: searchPath,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    ...launch.env,
    ...(spec.agent.env ?? {}),
    PARALLAX_TASK: spec.task.text,
    PARALLAX_MODEL: spec.provider.model,
    PARALLAX_RUN_ID: spec.runId,
    OPENAI_BASE_URL: `${base}/v1`,
    OPENAI_API_KEY: token,
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: token,
  };
  const argv = launch.argv;
  let command = argv.map(quote).join(' ');
  const binds: SandboxBind[] = launch.shown.map((s) => ({ path: s.path }));
  if (namespaced) {
    const node = process.execPath;
    if (!isSystemPath(node)) binds.push({ path: node });
    // Electron's binary runs the bridge as Node.
    if (!/^node(\.exe)?$/.test(path.basename(node))) env.ELECTRON_RUN_AS_NODE = '1';
    binds.push({ path: socketDir!, writable: true });
    command = [node, '-e', BRIDGE, String(BRIDGE_PORT), path.join(socketDir!, 'proxy.sock'), ...argv]
      .map(quote)
      .join(' ');
  }
  const timeoutMs = spec.agent.timeoutMs ?? AGENT_TIMEOUT_MS;
  let run: ShellRun | null = null;
  let failure: string | null = null;
  try {
    run = await runShellCommand(`exec ${command}`, {
      workspace: spec.workspace,
      env,
      signal: stopper.signal,
      sandbox: info,
      binds,
      sandboxPath: searchPath,
      hostNetwork: true,
      limits: {
        timeoutMs,
        outputBytes: AGENT_OUTPUT_BYTES,
        maxProcesses: AGENT_MAX_PROCESSES,
        fileBytes: DEFAULT_TOOL_LIMITS.workspaceWriteBytes,
        writeBudgetBytes: DEFAULT_TOOL_LIMITS.workspaceWriteBytes,
        tmpBytes: DEFAULT_TOOL_LIMITS.shellTmpBytes,
      },
    });
  } catch (err) {
    failure = (err as Error).message;
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    await proxy.close();
    if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  }
  steps.begin(undefined, startedAt);
  steps.end();
  if (failure !== null || !run)
    return { status: 'error', answer: '', error: `The agent could not be started: ${failure}` };
  if (steps.gaveUp !== null) return { status: 'error', answer: '', error: steps.gaveUp };
  if (steps.overLimit)
    return {
      status: 'max-steps',
      answer: '',
      error: `Stopped after ${spec.settings.maxSteps} steps (model requests) without a final answer. Raise "max steps" if the task needs more.`,
    };
  if (run.stop === 'cancel' || opts.signal.aborted)
    return {
      status: 'cancelled',
      answer: '',
      error: typeof opts.signal.reason === 'string' ? opts.signal.reason : 'The run was cancelled.',
    };
  const tail = (s: string) => (s.length > STDERR_TAIL ? `…${s.slice(-STDERR_TAIL)}` : s).trim();
  if (run.stop === 'time')
    return {
      status: 'error',
      answer: '',
      error: `The agent ran longer than its time limit of ${timeoutMs / 1000} s and was stopped with everything it started.${run.stderr.trim() ? ` Its standard error ended: ${tail(run.stderr)}` : ''}`,
    };
  if (run.stop === 'processes')
    return {
      status: 'error',
      answer: '',
      error: `The agent started more than ${AGENT_MAX_PROCESSES} processes at once and was stopped.`,
    };
  if (run.stop === 'write-budget')
    return {
      status: 'error',
      answer: '',
      error: "The agent wrote more than the run's workspace write budget and was stopped.",
    };
  if (run.exitCode !== 0) {
    const said = tail(run.stderr);
    const missing = MISSING.test(run.stderr) ? ` ${whatItSaw(info, launch)}` : '';
    return {
      status: 'error',
      answer: '',
      error: `The agent exited with status ${run.exitCode}.${said ? ` Its standard error ended: ${said}` : ' It wrote nothing to standard error.'}${missing}`,
    };
  }
  // A flood is no answer: the runner kept the first bytes and counted the rest.
  const flood = /\n\[output truncated: (\d+) more bytes not shown[^\]]*\]$/.exec(run.stdout);
  if (flood) {
    return {
      status: 'error',
      answer: '',
      error: `The agent wrote ${AGENT_OUTPUT_BYTES + Number(flood[1])} bytes to its standard output, more than an answer may hold (${AGENT_OUTPUT_BYTES} bytes); it began: ${run.stdout.slice(0, 200)}…`,
    };
  }
  const answer = run.stdout.trim();
  if (steps.noPolicy) return { status: 'no-policy', answer, error: NO_POLICY_MESSAGE };
  if (answer === '')
    return {
      status: 'error',
      answer: '',
      error: 'The agent exited with status 0 but wrote no answer on its standard output.',
    };
  return { status: 'answered', answer };
}

/** A program that could not start, or could not find a module or a file: what the sandbox showed may be why. */
const MISSING =
  /ModuleNotFoundError|ImportError|No module named|Cannot find (module|package)|ERR_MODULE_NOT_FOUND|can't open file|No such file or directory|ENOENT|could not start|error while loading shared libraries|Permission denied|EACCES/;

const shownList = (launch: AgentLaunch): string => launch.shown.map((s) => `${s.path} (${s.why})`).join('; ');

/** For a start or import failure: what the program was shown, and how to show more. */
export function whatItSaw(info: ShellSandboxInfo, launch: AgentLaunch): string {
  const program = `It ran ${launch.argv[0]}.`;
  const notes = launch.notes.filter((n) => /virtual environment/.test(n)).join(' ');
  if (info.kind !== 'bubblewrap')
    return `${program} It ran without an OS sandbox, so every file this user can read was there: the error is the program's own (a package not installed for that interpreter?).${notes ? ` ${notes}` : ''}`;
  const hidden = launch.hidden.length
    ? ` Not shown: ${launch.hidden.map((h) => h.path).join(', ')} (arguments, not code).`
    : '';
  return `${program} Inside the sandbox it saw, read-only: the system folders${launch.shown.length ? `; ${shownList(launch)}` : ''}; and the run's workspace (writable).${hidden} To show another file or folder, list it in the column's agent: {"paths": ["/full/path"]}; \`parallax tools --variants FILE\` shows what each agent column sees.${notes ? ` ${notes}` : ''}`;
}

/** What the agent's program could reach, in words for the record (run-started.shellSandbox). */
export function agentReach(info: ShellSandboxInfo, launch: AgentLaunch): string {
  if (info.kind === 'bubblewrap') {
    const shown = launch.shown.length ? `; ${shownList(launch)}` : '';
    return `The agent (${launch.argv[0]}) ran in a bubblewrap sandbox: no network but its recording proxy, no other processes visible, only the run's workspace writable. Read-only: the system folders${shown}.`;
  }
  const why = info.reason.replace(/\s+$/, '');
  const procs = info.unshare
    ? 'In a user namespace of its own (unshare), it could not read the environment or memory of other processes.'
    : 'No user namespace could be made here, so it could also read the environment and memory of your other processes (where a key may be).';
  return `The agent (${launch.argv[0]}) ran without an OS sandbox (${why}): it could read and write what this user can (a key stored in a file included) and reach any network. ${procs} Its environment held no keys, and everything it started was ended with the run.`;
}

export const isAgentSpec = (spec: RunSpec): spec is RunSpec & { readonly agent: AgentCommand } =>
  spec.mode === 'agent' && spec.agent !== undefined;
