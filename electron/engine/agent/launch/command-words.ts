/**
 * Reading an agent column's command as its interpreter would: which words are code (the script, a module
 * preloaded with --require or --import) and which are plain arguments. Only code brings its project into the
 * sandbox; an argument that names a file shows nothing (it could name any file the user can read).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Family } from './interpreter.js';

export interface CodeWords {
  /** Indexes (into the arguments) of the words that are code files. */
  readonly code: readonly number[];
  /** The program's own text instead of a script (-c, -e, -m): there is no script to show. */
  readonly inline: boolean;
}

/** Python's options that take the next word (python --help); -c and -m end the options. */
const PY_VALUE = new Set(['W', 'X']);
const PY_LONG_VALUE = new Set(['--check-hash-based-pycs']);

function pythonCode(args: readonly string[]): CodeWords {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-') return { code: [], inline: true };
    if (a === '--') return i + 1 < args.length ? { code: [i + 1], inline: false } : { code: [], inline: false };
    if (a.startsWith('--')) {
      if (PY_LONG_VALUE.has(a)) i++;
      continue;
    }
    if (a.startsWith('-')) {
      // Letters may be grouped (-uB); -c, -m end the options, -W and -X take the rest or the next word.
      for (let j = 1; j < a.length; j++) {
        const letter = a[j]!;
        if (letter === 'c' || letter === 'm') return { code: [], inline: true };
        if (PY_VALUE.has(letter)) {
          if (j === a.length - 1) i++;
          break;
        }
      }
      continue;
    }
    return { code: [i], inline: false };
  }
  return { code: [], inline: false };
}

/** Node's options whose value is code it loads, and those that take the next word as another value. */
const NODE_CODE = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);
const NODE_VALUE = new Set([
  '-C',
  '--conditions',
  '--input-type',
  '--env-file',
  '--title',
  '--inspect-port',
  '--experimental-config-file',
]);
const NODE_INLINE = new Set(['-e', '--eval', '-p', '--print']);

function nodeCode(args: readonly string[]): CodeWords {
  const code: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { code: i + 1 < args.length ? [...code, i + 1] : code, inline: false };
    if (NODE_INLINE.has(a) || NODE_INLINE.has(a.split('=')[0]!)) return { code, inline: true };
    if (NODE_CODE.has(a)) {
      if (i + 1 < args.length) code.push(i + 1);
      i++;
      continue;
    }
    if (NODE_VALUE.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return { code: [...code, i], inline: false };
  }
  return { code, inline: false };
}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** Any other program: its first argument that is not an option and names an existing file is its script. */
function genericCode(args: readonly string[]): CodeWords {
  const i = args.findIndex((a) => !a.startsWith('-') && path.isAbsolute(a) && isFile(a));
  return { code: i >= 0 ? [i] : [], inline: false };
}

/** The code words among a program's arguments, by its family (tsx reads node's options). */
export function codeWords(family: Family | 'generic', args: readonly string[]): CodeWords {
  if (family === 'python') return pythonCode(args);
  if (family === 'node') return nodeCode(args);
  return genericCode(args);
}

/** `--opt=/a/b` → `/a/b`; any other word as it is: the part of a word that may name a file. */
export const fileOfWord = (word: string): string =>
  word.startsWith('-') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
