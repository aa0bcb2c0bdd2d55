/**
 * missing-file: the task names release-notes.txt, but the workspace holds docs/release-notes.md (another
 * folder, another extension) beside src/, so the first read fails with the tool's real error. The notes list
 * seeded versions, newest first; the validator reads the newest back from the workspace.
 */
import type { Validation } from '../../../shared/step-event.js';
import { seededRandom } from '../../../shared/seeded-random.js';
import { codeMissingFile, reactMissingFile } from '../../sim/policies/missing-file.js';
import { defineTask, type WorkspaceFile } from '../task.js';
import { versionsIn } from './rules.js';
import { judgedFileDetail, readJudgedFile } from '../judged-file.js';

/** Where the notes really are (the task names another path on purpose). */
export const NOTES_PATH = 'docs/release-notes.md';

export const missingFile = defineTask({
  id: 'missing-file',
  workspace: generateReleaseNotes,
  validate: (answer, ctx) => validateMissingFile(answer, ctx.workspace),
  sim: {
    detect: (text) => {
      const file = /([\w./-]*release[-_ ]?notes[\w.-]*\.\w+)/i.exec(text)?.[1];
      return file && /\bversion\b/i.test(text) ? { file } : null;
    },
    react: (conv, p) => reactMissingFile(conv, p.file),
    code: (conv, p) => codeMissingFile(conv, p.file),
    // A simple look: Hybrid reads directly, as ReAct does.
    modes: { hybrid: (conv, p) => reactMissingFile(conv, p.file) },
  },
});

const CHANGES = [
  'Faster start-up',
  'New export to CSV',
  'Fixed a crash on empty input',
  'Dark theme',
  'Smaller downloads',
  'Retry on network errors',
];

export function generateReleaseNotes(seed: number): WorkspaceFile[] {
  const rand = seededRandom(seed);
  let [major, minor, patch] = [1 + Math.floor(rand() * 5), Math.floor(rand() * 10), Math.floor(rand() * 5)];
  let day = Date.UTC(2026, 10, 20);
  const sections: string[] = [];
  for (let i = 0; i < 4; i++) {
    const change = CHANGES[Math.floor(rand() * CHANGES.length)];
    sections.push(`## ${major}.${minor}.${patch} (${new Date(day).toISOString().slice(0, 10)})\n\n- ${change}\n`);
    // Older releases: step back a patch, or a minor version.
    if (patch > 0) patch -= 1;
    else if (minor > 0) [minor, patch] = [minor - 1, 3];
    else [major, minor, patch] = [major - 1, 9, 3];
    day -= (7 + Math.floor(rand() * 40)) * 86_400_000;
  }
  return [
    { name: NOTES_PATH, content: `# Release notes\n\nNewest first.\n\n${sections.join('\n')}` },
    { name: 'src/main.js', content: "console.log('hello');\n" },
    { name: 'README.md', content: '# Demo project\n\nSource in `src/`, documents in `docs/`.\n' },
  ];
}

async function validateMissingFile(answer: string, workspace: string): Promise<Validation> {
  let versions: string[];
  try {
    versions = versionsIn(await readJudgedFile(workspace, NOTES_PATH));
  } catch (error) {
    return {
      ok: false,
      detail:
        judgedFileDetail(error) ??
        `Could not read ${NOTES_PATH} in the workspace to check the version: ${(error as Error).message}.`,
    };
  }
  if (versions.length === 0) return { ok: false, detail: `${NOTES_PATH} in the workspace names no version.` };
  const found = [...answer.matchAll(/\bv?(\d+\.\d+\.\d+)\b/g)].map((m) => m[1]);
  const older = versions.slice(1).filter((v) => found.includes(v));
  const ok = found.includes(versions[0]) && older.length === 0;
  const also = older.length ? `, also the older ${older.join(', ')}` : '';
  return {
    ok,
    detail: `Expected the latest version ${versions[0]} (from ${NOTES_PATH}); found ${found.join(', ') || 'no version'}${also}.`,
  };
}
