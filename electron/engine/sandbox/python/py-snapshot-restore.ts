/**
 * Booting Pyodide from the build's boot snapshot (py-runtime.ts) without making more of the process resident
 * than a plain boot does. Given the whole file, Pyodide reads it into one buffer and copies all of it into fresh
 * WebAssembly memory: the 30 MB buffer stays resident until V8 frees it (on a background thread, after a full
 * collection), and every page of the memory is written, though about half hold only zeros (the deep end of the
 * 10 MB stack, the heap's free top) that a plain boot never touches and so never makes resident. Here Pyodide
 * gets only the header (it checks the magic number and build id and takes its JavaScript state from it), and
 * the memory is read from the file a chunk at a time, each 4 KiB page written only when it holds something.
 * A page left out is one the fresh memory already holds as zeros, which py-boot-snapshot.test.ts checks for the
 * installed Pyodide; its pages are not even read, since some kernels make a page resident on a read.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadPyodide, type PyodideAPI, type PyodideConfig } from 'pyodide';

type CreateModule = NonNullable<PyodideConfig['createPyodideModule']>;

const PAGE = 4096;
// Small, so the buffer left for the collector adds little to the resident size either.
const CHUNK = 1 << 16;
/** Pyodide's header: magic number, offset of the memory, length of the JSON state, then the build id. */
const HEADER_WORDS = 12;

/** Reads `length` bytes at `position` of the file into `into`, or throws at the file's end. */
function readFully(fd: number, into: Uint8Array, length: number, position: number): void {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error('the boot snapshot ends early');
    done += n;
  }
}

function zeroWords(words: Int32Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (words[i] !== 0) return false;
  return true;
}

/** Copies the snapshot's memory (the file from `offset` on) into `heap`, all but its pages of zeros. */
function copyMemory(fd: number, offset: number, bytes: number, heap: Uint8Array): void {
  const chunk = new Uint8Array(CHUNK);
  const words = new Int32Array(chunk.buffer);
  for (let at = 0; at < bytes; at += CHUNK) {
    const length = Math.min(CHUNK, bytes - at);
    readFully(fd, chunk, length, offset + at);
    for (let page = 0; page < length; page += PAGE)
      if (!zeroWords(words, page >> 2, (page + PAGE) >> 2)) heap.set(chunk.subarray(page, page + PAGE), at + page);
  }
}

/**
 * Pyodide booted from the snapshot `file` with `options` (those it was made with). Throws when the file is not a
 * snapshot of this Pyodide; the caller boots plainly then.
 */
export async function loadFromSnapshot(
  file: string,
  options: PyodideConfig & { readonly indexURL: string },
): Promise<PyodideAPI> {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const words = new Uint32Array(HEADER_WORDS);
    readFully(fd, new Uint8Array(words.buffer), words.byteLength, 0);
    const offset = words[1]!;
    const bytes = size - offset;
    if (offset < words.byteLength || offset > size || bytes % PAGE !== 0) throw new Error('not a boot snapshot');
    const header = new Uint8Array(offset);
    readFully(fd, header, offset, 0);
    const factory = (await import(pathToFileURL(path.join(options.indexURL, 'pyodide.asm.mjs')).href)) as {
      default: CreateModule;
    };
    const createPyodideModule: CreateModule = async (settings) => {
      // Sized as Pyodide sizes it when given the whole file; filled before Pyodide restores its state on top.
      settings.INITIAL_MEMORY = size;
      const module = await factory.default(settings);
      if (module.HEAPU8.length < bytes) throw new Error('the boot snapshot does not fit the memory');
      copyMemory(fd, offset, bytes, module.HEAPU8);
      return module;
    };
    return await loadPyodide({ ...options, _loadSnapshot: header, createPyodideModule });
  } finally {
    closeSync(fd);
  }
}
