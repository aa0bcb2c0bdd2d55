/**
 * config-lookup: one small config.json whose server port (and the other numbers beside it) come from the seed,
 * so a memorised answer fails on another seed. The validator reads the port back from the workspace.
 */
import type { Validation } from '../../../shared/step-event.js';
import { seededRandom } from '../../../shared/seeded-random.js';
import { codeConfigLookup, reactConfigLookup } from '../../sim/policies/config-lookup.js';
import { numbersIn } from '../numbers-in.js';
import { defineTask, type WorkspaceFile } from '../task.js';
import { judgedFileDetail, readJudgedFile } from '../judged-file.js';

export const CONFIG_FILE = 'config.json';

export const configLookup = defineTask({
  id: 'config-lookup',
  workspace: generateConfig,
  validate: (answer, ctx) => validateConfigLookup(answer, ctx.workspace),
  sim: {
    detect: (text) => {
      const file = /([\w./-]+\.json)\b/.exec(text)?.[1];
      return file && /\bport\b/i.test(text) ? { file } : null;
    },
    react: (conv, p) => reactConfigLookup(conv, p.file),
    code: (conv, p) => codeConfigLookup(conv, p.file),
    // A single read: Hybrid looks directly, as ReAct does.
    modes: { hybrid: (conv, p) => reactConfigLookup(conv, p.file) },
  },
});

/** config.json and a README; the server port never equals another number in the file. */
export function generateConfig(seed: number): WorkspaceFile[] {
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const port = int(8000, 8999);
  const config = {
    service: 'orders-api',
    server: { host: '0.0.0.0', port, workers: int(2, 16), requestTimeoutMs: int(10, 60) * 1000 },
    database: { host: 'db.internal', port: int(5400, 5499), pool: int(5, 40) },
    cache: { enabled: true, ttlSeconds: int(30, 900) },
    metrics: { port: port + int(1, 99) },
  };
  return [
    { name: CONFIG_FILE, content: `${JSON.stringify(config, null, 2)}\n` },
    {
      name: 'README.md',
      content: '# orders-api\n\nSettings live in `config.json`: server, database, cache and metrics.\n',
    },
  ];
}

async function validateConfigLookup(answer: string, workspace: string): Promise<Validation> {
  let port: unknown;
  let others: number[];
  try {
    const config = JSON.parse(await readJudgedFile(workspace, CONFIG_FILE)) as Record<string, Record<string, unknown>>;
    port = config.server?.port;
    others = [config.database?.port, config.metrics?.port].filter((n): n is number => typeof n === 'number');
  } catch (error) {
    return {
      ok: false,
      detail:
        judgedFileDetail(error) ??
        `Could not read ${CONFIG_FILE} in the workspace to check the port: ${(error as Error).message}.`,
    };
  }
  if (typeof port !== 'number')
    return { ok: false, detail: `${CONFIG_FILE} in the workspace has no number at server.port.` };
  const found = numbersIn(answer);
  const wrong = others.filter((n) => found.includes(n));
  const ok = found.includes(port) && wrong.length === 0;
  const also = wrong.length > 0 ? ` and also the other ports ${wrong.join(', ')}` : '';
  return {
    ok,
    detail: `Expected the server port ${port}; found ${found.length ? found.join(', ') : 'no number'}${also}.`,
  };
}
