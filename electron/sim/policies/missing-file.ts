/**
 * missing-file, recovering from a tool error: the named file is not where the task says. ReAct (and Hybrid
 * and ReAct + tool search, which have list_dir and read_file directly) reads it, gets the tool's error, lists
 * the folders that error names (the workspace root when it names none), reads the file whose name matches and
 * answers. Code Mode prints the file, gets the error from the program, then searches the tree in a second
 * program that prints the match. Both only go on from a "not found" error; any other error is reported.
 * With a corrective hint after the error (errorHints 'corrective': "…or try the likely path…"), ReAct tries
 * the likely paths at once — the asked name as Markdown in each folder the error names, in one step — and
 * answers from the one that reads: one step fewer than listing first.
 */
import { versionsIn } from '../../tasks/builtin/rules.js';
import { NEXT_STEP_LEAD } from '../../engine/tools/error-hints.js';
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput } from './common.js';
import {
  firstLine,
  lastCall,
  looksLikeError,
  namesResult,
  type CallRecord,
  type Conversation,
} from './conversation.js';
import { programsFor } from './programs.js';

const NOT_FOUND = /\b(no (such )?file|not found|does not exist|no such file or directory|ENOENT)\b/i;

const isError = (result: string | undefined): boolean =>
  result === undefined || /^Error\b/.test(result.trim()) || looksLikeError(result);

/** "release-notes.txt" → "release-notes": what a renamed copy still shares. */
export const stemOf = (file: string): string => (file.split('/').pop() ?? file).replace(/\.[^.]+$/, '').toLowerCase();

function versionAnswer(content: string, path: string, asked: string): SimReply {
  const latest = versionsIn(content)[0];
  if (!latest)
    return finalAnswer([`${path} names no version, so I cannot tell the latest release: ${firstLine(content)}`]);
  const moved = path === asked ? '' : ` There is no ${asked}; the notes are in ${path}.`;
  return finalAnswer([`The latest release is version ${latest}.${moved}`]);
}

/** Entries the error names ("The workspace root contains: a, b/, c/."), or [] when it names none. */
export function rootEntriesIn(error: string): string[] {
  const m = /contains: ([^\n]*)$/m.exec(error);
  if (!m) return [];
  return m[1]
    .replace(/ and \d+ more.*$/, '')
    .replace(/\.\s*$/, '')
    .split(', ')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function reactMissingFile(conv: Conversation, asked: string): SimReply {
  const missing = missingTools(conv, ['read_file', 'list_dir']);
  if (missing) return missing;
  const first = lastCall(conv, 'read_file', (a) => a.path === asked);
  if (!first) return callTools([{ name: 'read_file', args: { path: asked } }]);
  if (!isError(first.result)) return versionAnswer(first.result!, asked, asked);
  if (!NOT_FOUND.test(first.result ?? ''))
    return finalAnswer([`I could not read ${asked}: ${firstLine(first.result ?? 'no result')}`]);

  const guessed = likelyPaths(first.result!, asked);
  if (guessed.length > 0) {
    const reads = guessed.map((path) => lastCall(conv, 'read_file', (a) => a.path === path));
    const hit = reads.find((r) => r && !isError(r.result));
    if (hit) return versionAnswer(hit.result!, String(hit.args.path), asked);
    if (reads.every((r) => !r))
      return callTools(
        guessed.map((path) => ({ name: 'read_file', args: { path } })),
        `There is no ${asked}; the hint says to try the likely path, so I try it in ${guessed.length === 1 ? 'the folder' : 'each folder'} the error names.`,
      );
  }
  // Every path seen so far: the error's root entries, then each listing's entries under its folder.
  const listings = conv.calls.filter((c) => c.name === 'list_dir');
  const paths = new Set(rootEntriesIn(first.result!));
  const listed = new Set<string>();
  for (const c of listings) {
    const folder = folderOf(c);
    listed.add(folder);
    for (const name of namesResult(c.result) ?? []) paths.add(folder === '' ? name : folder + name);
  }
  const stem = stemOf(asked);
  const match = [...paths].find((p) => !p.endsWith('/') && stemOf(p).includes(stem));
  if (match) {
    const read = lastCall(conv, 'read_file', (a) => a.path === match);
    if (!read)
      return callTools(
        [{ name: 'read_file', args: { path: match } }],
        `There is no ${asked}, but ${match} looks like the same notes.`,
      );
    if (isError(read.result))
      return finalAnswer([`I found ${match} but could not read it: ${firstLine(read.result ?? 'no result')}`]);
    return versionAnswer(read.result!, match, asked);
  }
  // Look inside the folders not listed yet, all in one step; the root first when nothing is known.
  const folders =
    paths.size === 0 && !listed.has('') ? ['.'] : [...paths].filter((p) => p.endsWith('/') && !listed.has(p));
  if (folders.length === 0 || listings.length >= 6) {
    return finalAnswer([
      `There is no ${asked} in the workspace, and no file with a similar name in the folders I listed (${[...listed].map((f) => f || '.').join(', ')}).`,
    ]);
  }
  const why =
    listings.length === 0 ? `${asked} does not exist here; let me look in ${folders.join(' and ')} for it.` : '';
  return callTools(
    folders.map((path) => ({ name: 'list_dir', args: { path } })),
    why,
  );
}

/**
 * The paths a model tries when a corrective hint says the file may be elsewhere or have another extension:
 * the asked name, as Markdown, in each folder the error names. None without such a hint (the plain error).
 */
export function likelyPaths(error: string, asked: string): string[] {
  if (!error.includes(NEXT_STEP_LEAD) || !/another extension/.test(error)) return [];
  const stem = (asked.split('/').pop() ?? asked).replace(/\.[^.]+$/, '');
  return rootEntriesIn(error.split(NEXT_STEP_LEAD)[0]!)
    .filter((e) => e.endsWith('/'))
    .map((folder) => `${folder}${stem}.md`)
    .filter((p) => p !== asked);
}

/** A list_dir call's folder as a prefix for its entries: "" for the root, "docs/" for docs. */
function folderOf(call: CallRecord): string {
  const path = String(call.args.path ?? '.').replace(/^\.\/?/, '');
  return path === '' ? '' : path.endsWith('/') ? path : `${path}/`;
}

export function codeMissingFile(conv: Conversation, asked: string): SimReply {
  const p = programsFor(conv);
  const first = lastCall(conv, 'run_code', (a) => a.code === p.printFile(asked));
  if (!first) return callTools([{ name: 'run_code', args: { code: p.printFile(asked) } }]);
  const out = programOutput(first.result);
  if (!out.error) return versionAnswer(out.printed, asked, asked);
  if (!NOT_FOUND.test(out.error)) return finalAnswer([`My program could not read ${asked}: ${firstLine(out.error)}`]);
  const search = p.findAndRead(stemOf(asked));
  const second = lastCall(conv, 'run_code', (a) => a.code === search);
  if (!second)
    return callTools(
      [{ name: 'run_code', args: { code: search } }],
      `${asked} does not exist here, so I search the workspace for a file of that name.`,
    );
  const found = programOutput(second.result);
  if (found.error) return finalAnswer([`My search for ${asked} failed: ${firstLine(found.error)}`]);
  const where = /^found: (.*)$/m.exec(found.printed)?.[1].split(', ')[0] ?? '';
  if (where === '') return finalAnswer([`There is no ${asked} in the workspace, nor a file with a similar name.`]);
  return versionAnswer(found.printed, where, asked);
}
