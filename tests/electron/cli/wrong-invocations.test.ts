/**
 * What a newcomer meets in the terminal, through real child processes of the CLI: a mistyped option named as
 * such in every command, a report to a file it cannot write or into a terminal refused with what to do, a program
 * that does not compile failing, errors that name flags (not the desktop app's composer), and a comparison's
 * output in plain words with its answer whole.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliArgv, runCli, type CliResult } from '../host/cli-process.js';

let env: NodeJS.ProcessEnv;
let dataDir: string;
let compared: CliResult;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-wrong-'));
  env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
  delete env.OPENAI_API_KEY;
  compared = await runCli(['compare', '--task', 'log-stats'], env);
});

/** The CLI with stdout on a pseudo-terminal (util-linux `script`), as when a person types the command. */
function onTerminal(args: string[]): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, ...cliArgv, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe('a mistyped option', () => {
  it('is named as unknown, with the option meant, before any missing required option, in every command', async () => {
    const taks = await runCli(['compare', '--taks', 'log-stats'], env);
    expect(taks.code).not.toBe(0);
    expect(taks.stderr).toContain("unknown option '--taks'");
    expect(taks.stderr).toContain('Did you mean --task?');
    expect(taks.stderr).not.toMatch(/required option/);
    for (const args of [
      ['suite', 'run', '--tsk', 'x'],
      ['report', 'latest', '--fromat', 'md'],
      ['history', '--jsno'],
      ['prices', 'set', 'm', '--inptu', '1'],
    ]) {
      const res = await runCli(args, env);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr, args.join(' ')).toContain(`unknown option '${args.find((a) => a.startsWith('--'))}'`);
    }
  });
});

describe('parallax report', () => {
  it('refuses a file it cannot write, naming the formats it can, and writes nothing', async () => {
    expect(compared.code, compared.stderr).toBe(0);
    const out = join(dataDir, 'out.pdf');
    const res = await runCli(['report', 'latest', '-o', out], env);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('Cannot write a ".pdf" file');
    for (const ext of ['.html', '.md', '.csv', '.json', '.otlp.json']) expect(res.stderr).toContain(ext);
    expect(existsSync(out)).toBe(false);
  });

  it('does not pour HTML into a terminal: it says how to get the report; a pipe still gets it', async () => {
    const tty = await onTerminal(['report', 'latest']);
    expect(tty.code).not.toBe(0);
    expect(tty.out).not.toContain('<html');
    expect(tty.out).toMatch(/Not printing the \d+ KB html report .* -o report\.html.*--format md/s);
    const piped = await runCli(['report', 'latest'], env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^<!doctype html>/i);
    const md = await onTerminal(['report', 'latest', '--format', 'md']);
    expect(md.code).toBe(0);
    expect(md.out).toContain('log-stats');
  });
});

describe('parallax exec', () => {
  it('exits non-zero with the error when the program does not compile', async () => {
    const file = join(dataDir, 'typo.js');
    await writeFile(file, "print('a'\nconst = 3;\n");
    const res = await runCli(['exec', file, '--workspace', dataDir], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/did not run: SyntaxError/);
  });
});

describe('an error a flag fixes', () => {
  it('names the flag and the variable, never the composer of the desktop app', async () => {
    const variants = JSON.stringify([{ mode: 'react', provider: 'openai' }, { mode: 'code' }]);
    const res = await runCli(['compare', '--task', 'log-stats', '--variants', variants], env);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('OPENAI_API_KEY');
    expect(res.stderr).toContain('apiKeyEnv');
    expect(res.stderr).not.toMatch(/composer|desktop app/);
  });
});

describe('parallax compare', () => {
  it('says the timing rows in plain words with their figures, and prints the answer whole', () => {
    const lines = compared.stdout.split('\n');
    const startRow = lines.find((l) => l.startsWith('Process start (not in wall time)'));
    expect(startRow).toMatch(/\d+(\.\d+)? (ms|s)/);
    expect(compared.stdout).not.toMatch(/warm pool|before Run/);
    expect(lines.find((l) => l.startsWith("First request (after the first run's)"))).toMatch(/\+\d+ ms/);
    expect(compared.stdout).toContain('how long after the earliest run each run sent its first request');
    // The answer's table is there row by row, not cut after its first line.
    expect(compared.stdout).not.toMatch(/answered: \| file .*…/);
    const header = lines.findIndex((l) => l.trim() === '| file | lines | ERROR lines |');
    expect(header).toBeGreaterThan(0);
    expect(lines.slice(header, header + 7).filter((l) => /^ {4}\| \S+\.txt \| \d+ \| \d+ \|$/.test(l))).toHaveLength(5);
  });
});
