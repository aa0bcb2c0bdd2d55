/**
 * `npm test`'s checks before the tests: the four type checks, ESLint, the layer rules, the unused-export check and the build, run two at a
 * time (these machines have two cores; one after another they left one core idle for two minutes). Each job's
 * output is printed whole when it ends, so two jobs never interleave their lines. The first failure stops the rest
 * and exits non-zero with that job's output; `--only-build` runs the build alone (what the tests need).
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Longest first, so the two slots finish together; the build's two halves are one job because the tests need both. */
const CHECKS = [
  { name: 'typecheck tests', cmd: [bin('tsc'), '-p', 'tests/tsconfig.json', '--noEmit'] },
  { name: 'eslint', cmd: [bin('eslint'), '.'] },
  { name: 'typecheck electron', cmd: [bin('tsc'), '-p', 'electron/tsconfig.json', '--noEmit'] },
  { name: 'typecheck renderer', cmd: [bin('tsc'), '-p', 'renderer/tsconfig.json', '--noEmit'] },
  { name: 'build', cmd: ['npm', 'run', '--silent', 'build'] },
  { name: 'typecheck shared', cmd: [bin('tsc'), '-p', 'shared/tsconfig.json', '--noEmit'] },
  { name: 'layer rules', cmd: ['npm', 'run', '--silent', 'lint:boundaries'] },
  { name: 'unused exports', cmd: ['node', 'build/unused-exports.mjs'] },
];

function run({ name, cmd }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => (out += `\n${e.message}`));
    child.on('close', (code) => resolve({ name, cmd, code, out, ms: performance.now() - started, child }));
    running.add(child);
  });
}

const running = new Set();
const jobs = process.argv.includes('--only-build') ? CHECKS.filter((c) => c.name === 'build') : CHECKS;
const slots = Math.max(1, Math.min(2, cpus().length));
const queue = [...jobs];
let failed = null;

async function worker() {
  while (queue.length && !failed) {
    const result = await run(queue.shift());
    running.delete(result.child);
    const seconds = (result.ms / 1000).toFixed(1);
    if (result.code === 0) {
      process.stdout.write(`✓ ${result.name} (${seconds} s)\n${result.out.trim() ? `${indent(result.out)}\n` : ''}`);
    } else if (!failed) {
      failed = result;
      for (const child of running) child.kill('SIGTERM');
      process.stdout.write(`✗ ${result.name} failed (exit ${result.code}, ${seconds} s):\n${result.out}\n`);
    }
  }
}

const indent = (text) =>
  text
    .trim()
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

await Promise.all(Array.from({ length: slots }, worker));
if (failed) {
  console.error(
    `\nnpm test stopped: "${failed.name}" failed (above). Fix it, or run it alone: ${failed.cmd.join(' ')}`,
  );
  process.exit(1);
}
