// Started by py-escape.test.ts exactly as the Pyodide child is (same command, flags and sandbox), in its place:
// what would a program that got out of Python into JavaScript reach? Prints one JSON line.
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';

const [secretFile, canaryFile, appFile, port] = process.argv.slice(-4);
const attempt = (fn) => {
  try {
    return `ok: ${String(fn()).slice(0, 80)}`;
  } catch (error) {
    return `refused: ${error.code ?? error.name}`;
  }
};
const result = {
  functionConstructor: attempt(() => new Function('return 1 + 1')()),
  evalCall: attempt(() => (0, eval)('1 + 1')),
  env: Object.keys(process.env).filter((k) => k !== 'ELECTRON_RUN_AS_NODE' && k !== 'PWD').join(',') || '(empty)',
  readSecret: attempt(() => readFileSync(secretFile, 'utf8')),
  writeCanary: attempt(() => writeFileSync(canaryFile, 'escaped')),
  writeAppCode: attempt(() => writeFileSync(appFile, 'escaped')),
};
result.network = await new Promise((resolve) => {
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.on('connect', () => (socket.destroy(), resolve('ok: connected')));
  socket.on('error', (error) => resolve(`refused: ${error.code}`));
});
process.stdout.write(`${JSON.stringify(result)}\n`);
