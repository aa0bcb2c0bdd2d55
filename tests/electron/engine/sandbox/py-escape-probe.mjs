// Started by py-escape.test.ts exactly as the Pyodide child is (same command, flags and sandbox), in its place:
// what would a program that got out of Python into JavaScript reach? Prints one JSON line.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { Worker } from 'node:worker_threads';

const [secretFile, canaryFile, appFile, hostPid, port] = process.argv.slice(-5);
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
  env:
    Object.keys(process.env)
      .filter((k) => k !== 'ELECTRON_RUN_AS_NODE' && k !== 'PWD')
      .join(',') || '(empty)',
  readSecret: attempt(() => readFileSync(secretFile, 'utf8')),
  listRoot: attempt(() => readdirSync('/').join(',')),
  hostEnviron: attempt(() => readFileSync(`/proc/${hostPid}/environ`, 'utf8')),
  selfEnviron: attempt(() => readFileSync('/proc/self/environ', 'utf8')),
  writeCanary: attempt(() => writeFileSync(canaryFile, 'escaped')),
  writeAppCode: attempt(() => writeFileSync(appFile, 'escaped')),
  childProcess: attempt(() => execFileSync('/bin/sh', ['-c', `echo escaped > ${canaryFile}`])),
  nativeAddon: attempt(() => process.dlopen({ exports: {} }, '/usr/lib/x86_64-linux-gnu/libc.so.6')),
  processBinding: attempt(() => Object.keys(process.binding('fs')).length),
};
// A worker thread lives under the same permissions: it reads nothing more.
result.workerRead = await new Promise((resolve) => {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     try { require('node:fs').readFileSync(workerData, 'utf8'); parentPort.postMessage('ok: read'); }
     catch (e) { parentPort.postMessage('refused: ' + (e.code ?? e.name)); }`,
    { eval: true, workerData: secretFile },
  );
  worker.on('message', (m) => (resolve(m), worker.terminate()));
  worker.on('error', (e) => resolve(`refused: ${e.code ?? e.name}`));
});
result.network = await new Promise((resolve) => {
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.on('connect', () => (socket.destroy(), resolve('ok: connected')));
  socket.on('error', (error) => resolve(`refused: ${error.code}`));
});
process.stdout.write(`${JSON.stringify(result)}\n`);
