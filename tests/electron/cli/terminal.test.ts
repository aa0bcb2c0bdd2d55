/**
 * The CLI's output is inert: a hostile model (a real HTTP server on loopback speaking the OpenAI chat API)
 * answers with terminal escape sequences and bidi controls, and names a tool with them; `parallax run`
 * prints its step table and answer, `parallax exec` a program's output. What must not happen: any raw
 * control character (other than newline and tab) or bidi control reaching the terminal. Also: no CLI file
 * but terminal.ts writes to stdout or stderr itself, and the terminal approval prompt shows a command's tail.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalPrompter } from '../../../electron/cli/approvals.js';
import { cliArgv } from '../host/cli-process.js';

const ESC = '\u001b';
const HOSTILE = `${ESC}]52;c;ZWNobyBQV05FRA==\u0007${ESC}]0;owned${ESC}\\${ESC}[1A${ESC}[2K\u009b31m\u202eevil\r`;
// Control characters other than newline and tab, and the bidi controls.
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const cli = [...cliArgv];

let server: Server;
let baseUrl: string;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallax-cli-inert-'));
  let calls = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      calls++;
      // First reply: a call of a tool whose name carries escapes; then the answer, which carries them too.
      const message =
        calls % 2 === 1
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: `list_dir${HOSTILE}`, arguments: '{}' } }],
            }
          : { role: 'assistant', content: `The answer ${HOSTILE} ends here.` };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'hostile',
          choices: [{ index: 0, message, finish_reason: calls % 2 === 1 ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

function parallax(args: string[], cwd = process.cwd()): Promise<{ stdout: string; stderr: string }> {
  const env = { ...process.env, PARALLAX_DATA_DIR: join(dir, 'data'), HOSTILE_KEY: 'k' };
  return new Promise((resolve) =>
    execFile(process.execPath, [...cli, ...args], { env, cwd, timeout: 90_000 }, (_e, stdout, stderr) =>
      resolve({ stdout, stderr }),
    ),
  );
}

describe('terminal output is inert', () => {
  it('parallax run: the step table (tool name) and the answer show the escapes, none reaches the terminal raw', async () => {
    const r = await parallax([
      'run',
      '--task',
      'list the files',
      '--mode',
      'react',
      '--base-url',
      baseUrl,
      '--model',
      'hostile',
      '--api-key-env',
      'HOSTILE_KEY',
    ]);
    expect(r.stdout).toContain('The answer');
    expect(r.stdout).toContain('\\x1b]52;c;');
    expect(r.stdout).toContain('<U+202E>evil');
    expect(r.stdout).toMatch(/list_dir\\x1b/); // the tool name in the step table
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(RAW);
  });

  it('parallax run --json: the same value, with C1 and bidi characters as \\u escapes', async () => {
    const r = await parallax([
      'run',
      '--task',
      'list the files',
      '--mode',
      'react',
      '--base-url',
      baseUrl,
      '--model',
      'hostile',
      '--api-key-env',
      'HOSTILE_KEY',
      '--json',
    ]);
    expect(r.stdout).not.toMatch(RAW);
    expect((JSON.parse(r.stdout) as { answer: string }).answer).toContain(HOSTILE);
  });

  it('parallax exec: a program printing escapes and a bidi override has them shown, not obeyed', async () => {
    await writeFile(join(dir, 'hostile.js'), `print(${JSON.stringify(HOSTILE)});`);
    const r = await parallax(['exec', join(dir, 'hostile.js'), '--workspace', dir]);
    expect(r.stdout).toContain('\\x1b]0;owned');
    expect(r.stdout).not.toMatch(RAW);
  });

  it('no CLI file but terminal.ts writes to stdout or stderr itself (every printer goes through it)', async () => {
    const root = join(process.cwd(), 'electron/cli');
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts') && f !== 'terminal.ts');
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(join(root, file), 'utf8');
      if (/process\.std(out|err)\.write\(|console\.(log|error|warn|info)\(/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});

describe('the terminal approval prompt', () => {
  it('"ls -la" + 420 spaces + "; echo PWNED > pwned.txt", and a tool name with escapes: the tail is shown, the escapes are not obeyed', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c: Buffer) => (shown += c.toString()));
    const prompter = new TerminalPrompter(input, output);
    const answer = prompter.ask({
      label: `react${ESC}[2K`,
      tool: 'run_shell',
      args: { command: `ls -la${' '.repeat(420)}; echo PWNED > pwned.txt` },
    });
    while (!shown.includes('Allow? ')) await new Promise((r) => output.once('data', r)); // the question is asked
    input.write('n\n');
    expect(await answer).toBe('deny');
    prompter.close();
    expect(shown).toContain('; echo PWNED > pwned.txt');
    expect(shown).toContain('[420 blank characters]');
    expect(shown).toContain('react\\x1b[2K');
    expect(shown).not.toMatch(RAW);
  });
});
