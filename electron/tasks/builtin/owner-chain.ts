/**
 * The owner-chain fixture: a dependent chain of three reads. incidents.log names the service with the most
 * ERROR lines; services/<service>.json names its owner's id; people/<id>.json holds the owner's name. Each
 * read needs the previous result, so ReAct pays a round trip per hop while a program can chain them.
 * Same seed, same bytes; every service has a different owner, so a wrong hop gives a wrong name.
 */
import type { Validation } from '../../../shared/step-event.js';
import { seededRandom } from '../../../shared/seeded-random.js';
import { codeOwnerChain, reactOwnerChain } from '../../sim/policies/owner-chain.js';
import { defineTask, type WorkspaceFile } from '../task.js';
import { errorsByService } from './rules.js';
import { judgedFileDetail, listJudgedFolder, readJudgedFile } from '../judged-file.js';

export const ownerChain = defineTask({
  id: 'owner-chain',
  workspace: generateOwnerChain,
  validate: (answer, ctx) => validateOwnerChain(answer, ctx.workspace),
  sim: {
    detect: (text) => (/incidents\.log\b/.test(text) && /\bowner\b/i.test(text) ? {} : null),
    react: (conv) => reactOwnerChain(conv),
    code: (conv) => codeOwnerChain(conv),
  },
});

const SERVICES = ['api-gateway', 'auth-service', 'billing', 'inventory', 'notifications', 'search'] as const;
const FIRST = [
  'Amara',
  'Bruno',
  'Chen',
  'Dalia',
  'Emeka',
  'Freya',
  'Goran',
  'Hana',
  'Ines',
  'Jonas',
  'Keiko',
  'Lars',
  'Maya',
  'Nikhil',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Kowalski',
  'Haddad',
  'Fernandes',
  'Novak',
  'Iyer',
  'Brandt',
  'Castillo',
  'Sato',
];
const TEAMS = ['Edge', 'Identity', 'Payments', 'Catalog', 'Messaging', 'Discovery'];
const MESSAGES = {
  INFO: [
    'request served in {n} ms',
    'deploy finished (build {n})',
    'error rate back to normal',
    'cache hit ratio {n} percent',
  ],
  WARN: ['latency above target by {n} ms', 'retrying call to upstream (attempt {n})'],
  ERROR: [
    'upstream timed out after {n} ms',
    'connection reset by peer',
    'could not acquire lock {n}',
    'request failed with status 5{n}',
  ],
} as const;

/** Short enough that a ReAct read_file result is never truncated (default limit 4,000 characters). */
const LOG_LINES = 44;
export const MAX_LOG_CHARS = 3800;

/** incidents.log, services/*.json, people/*.json (one extra person owns nothing), and a README. */
export function generateOwnerChain(seed: number): WorkspaceFile[] {
  const rand = seededRandom(seed ^ 0x5eed0c4a);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  for (;;) {
    const weights = SERVICES.map(() => 0.05 + rand() * 0.35);
    const lines: string[] = [];
    let clock = Date.UTC(2026, 10, 30, 6, 0, 0);
    for (let i = 0; i < LOG_LINES; i++) {
      clock += 1000 + Math.floor(rand() * 120_000);
      const s = Math.floor(rand() * SERVICES.length);
      const roll = rand();
      const level = roll < weights[s] ? 'ERROR' : roll < weights[s] + 0.15 ? 'WARN' : 'INFO';
      const text = pick(MESSAGES[level]).replace('{n}', String(1 + Math.floor(rand() * 99)));
      lines.push(`${new Date(clock).toISOString()} ${level.padEnd(5)} [${SERVICES[s]}] ${text}`);
    }
    const log = `${lines.join('\n')}\n`;
    const counts = SERVICES.map((s) => errorsByService(log).get(s) ?? 0);
    const max = Math.max(...counts);
    // One clear leader, so "the service with the most ERROR lines" has one right answer.
    if (counts.filter((c) => c >= max - 1).length !== 1 || log.length > MAX_LOG_CHARS) continue;

    const names = new Set<string>();
    while (names.size < SERVICES.length + 1) names.add(`${pick(FIRST)} ${pick(LAST)}`);
    const people = [...names].map((name, i) => ({ id: `e-${1000 + Math.floor(rand() * 900) * 10 + i}`, name }));
    const files: WorkspaceFile[] = [{ name: 'incidents.log', content: log }];
    SERVICES.forEach((service, i) => {
      const config = {
        service,
        owner: people[i].id,
        team: TEAMS[i],
        tier: 1 + (i % 3),
        repo: `git.example.com/platform/${service}`,
      };
      files.push({ name: `services/${service}.json`, content: `${JSON.stringify(config, null, 2)}\n` });
    });
    people.forEach((p, i) => {
      const person = {
        id: p.id,
        name: p.name,
        email: `${p.name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
        team: TEAMS[i] ?? 'Platform',
      };
      files.push({ name: `people/${p.id}.json`, content: `${JSON.stringify(person, null, 2)}\n` });
    });
    files.push({
      name: 'README.md',
      content:
        '# On-call records\n\n`incidents.log`: one line per event (time, level, [service], message).\n' +
        "`services/<service>.json`: each service's config; `owner` is a person id.\n`people/<id>.json`: one file per person.\n",
    });
    return files;
  }
}

/** Follows the chain in the workspace as it is now and checks that the answer names the owner, and no other person. */
async function validateOwnerChain(answer: string, workspace: string): Promise<Validation> {
  let leader: string;
  let owner: { id: string; name: string };
  const others: string[] = [];
  try {
    const counts = [...errorsByService(await readJudgedFile(workspace, 'incidents.log'))].sort((a, b) => b[1] - a[1]);
    if (counts.length === 0)
      return { ok: false, detail: 'incidents.log holds no ERROR line, so there is no service to follow.' };
    leader = counts[0][0];
    const config = JSON.parse(await readJudgedFile(workspace, `services/${leader}.json`)) as { owner: string };
    owner = JSON.parse(await readJudgedFile(workspace, `people/${config.owner}.json`)) as { id: string; name: string };
    for (const entry of await listJudgedFolder(workspace, 'people')) {
      const person = JSON.parse(await readJudgedFile(workspace, `people/${entry.name}`)) as { name: string };
      if (person.name !== owner.name) others.push(person.name);
    }
  } catch (error) {
    return {
      ok: false,
      detail:
        judgedFileDetail(error) ??
        `Could not follow the chain in ${workspace} (${(error as Error).message}); validate in the run's own workspace.`,
    };
  }
  const text = answer.toLowerCase();
  const named = text.includes(owner.name.toLowerCase());
  const wrong = others.filter((n) => text.includes(n.toLowerCase()));
  const expected = `${owner.name} (${owner.id}, owner of ${leader})`;
  if (!named)
    return {
      ok: false,
      detail: `Expected ${expected}; the answer does not name them${wrong.length ? `, it names ${wrong.join(', ')}` : ''}.`,
    };
  if (wrong.length > 0)
    return { ok: false, detail: `Expected only ${expected}; the answer also names ${wrong.join(', ')}.` };
  return { ok: true, detail: `Expected and found ${expected}.` };
}
