/**
 * The import boundaries of .dependency-cruiser.cjs catch what they are for: run over a small tree that breaks
 * each rule once (tests/fixtures/boundaries), they report exactly those imports and pass the allowed ones.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as IConfiguration;
const FIXTURE = fileURLToPath(new URL('../fixtures/boundaries/', import.meta.url));

describe('import boundaries', () => {
  it('reports each forbidden import of the fixture tree with its rule, and nothing allowed', async () => {
    const result = await cruise(['shared', 'electron', 'renderer'], {
      ...config.options,
      tsConfig: undefined,
      baseDir: FIXTURE,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    });
    const output = result.output as ICruiseResult;
    const found = output.summary.violations
      .map((v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`)
      .sort();
    expect(found).toEqual([
      'cli-commands-load-lazily: electron/cli/commands/eager.js → electron/host/host.js',
      'electron-only-in-shells: electron/host/host.js → node_modules/electron/index.js',
      'engine-runs-any-task: electron/engine/loop.js → electron/tasks/task.js',
      'engine-stays-below: electron/engine/loop.js → electron/host/host.js',
      'renderer-is-a-page: renderer/app.js → electron/engine/loop.js',
      'shared-is-pure: shared/bad.js → electron/host/host.js',
      'shared-is-pure: shared/bad.js → fs',
      'tasks-below-host: electron/tasks/task.js → electron/host/host.js',
    ]);
  });
});
