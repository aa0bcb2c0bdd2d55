/** Suite runs on disk: `<data>/suites/<id>.json`, one record each, written atomically after every task. */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suiteRecordSchema, type SuiteRecord } from '../../shared/suite.js';
import { PRIVATE_DIR, PRIVATE_FILE } from '../host/private-files.js';

export class SuiteStore {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = join(dataDir, 'suites');
  }

  /** A new id that sorts by time: s-20261201-105100-1a2b. */
  static newId(now = new Date()): string {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return `s-${stamp}-${randomBytes(2).toString('hex')}`;
  }

  async write(record: SuiteRecord): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR });
    const path = join(this.root, `${record.id}.json`);
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(record, null, 2) + '\n', { mode: PRIVATE_FILE });
    await rename(tmp, path);
  }

  async read(id: string): Promise<SuiteRecord> {
    if (!/^[\w-]+$/.test(id)) throw new Error(`"${id}" is not a suite id. Run \`parallax suite list\` to see them.`);
    let text: string;
    try {
      text = await readFile(join(this.root, `${id}.json`), 'utf8');
    } catch {
      throw new Error(
        `No suite run "${id}" in ${this.root}. Run \`parallax suite list\` to see them, or use "latest".`,
      );
    }
    const parsed = suiteRecordSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new Error(
        `The suite record ${id} is damaged (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}).`,
      );
    return parsed.data as SuiteRecord;
  }

  /** Every readable record, newest first; damaged ones are reported through `warn` and skipped. */
  async list(warn: (m: string) => void = () => {}): Promise<SuiteRecord[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const out: SuiteRecord[] = [];
    for (const n of names.filter((x) => x.endsWith('.json'))) {
      try {
        out.push(await this.read(n.slice(0, -5)));
      } catch (error) {
        warn((error as Error).message);
      }
    }
    return out.sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
  }

  /** An exact id, "latest", or a unique prefix. */
  async resolve(wanted: string): Promise<SuiteRecord> {
    const all = await this.list();
    if (wanted === 'latest') {
      if (all.length === 0)
        throw new Error(`There is no suite run in ${this.root} yet. Run one: \`parallax suite run builtin\`.`);
      return all[0];
    }
    const exact = all.find((r) => r.id === wanted);
    if (exact) return exact;
    const matches = all.filter((r) => r.id.startsWith(wanted));
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) throw new Error(`"${wanted}" matches ${matches.length} suite runs; give more of the id.`);
    throw new Error(
      `No suite run "${wanted}" in ${this.root}. Run \`parallax suite list\` to see them, or use "latest".`,
    );
  }
}
