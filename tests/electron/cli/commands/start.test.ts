/** `parallax start` (what `npm start` runs) on a machine without a display, as a real child process. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDER_PRESETS } from '../../../../shared/providers.js';
import { runCli } from '../../host/cli-process.js';

describe('parallax start without a display', () => {
  it('says there is no display, so the comparison runs in the terminal, then runs it', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PARALLAX_DATA_DIR: await mkdtemp(join(tmpdir(), 'parallax-cli-start-')),
    };
    for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', ...PROVIDER_PRESETS.map((p) => p.keyEnv)])
      if (name) delete env[name];
    const res = await runCli(['start'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(
      /^No display on this machine .* the comparison runs here in the terminal instead/,
    );
    expect(res.stdout).toContain('npx parallax serve');
    expect(res.stdout).toMatch(/Stored as \S+ in /);
  });
});
