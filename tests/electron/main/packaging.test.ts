import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../../electron/main/app-origin.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// electron-builder's own config loader and schema check (from its app-builder-lib), so the file is judged by
// the same rules `npm run dist` applies.
const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(dir: string, file: string, extra: null): Promise<Record<string, any>>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

function pngSize(file: string): { width: number; height: number } {
  const buf = readFileSync(file);
  expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('passes electron-builder schema validation', async () => {
    const config = await getConfig(root, 'electron-builder.yml', null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('builds the four installers from the compiled app', async () => {
    const config = await getConfig(root, 'electron-builder.yml', null);
    expect(config.appId).toBe('dev.parallax.app');
    expect(config.productName).toBe('Parallax');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    // getConfig normalises the list into one file set.
    const files = (config.files as { filter: string[] }[]).flatMap((f) => f.filter);
    expect(files).toEqual(expect.arrayContaining(['dist/**/*', 'package.json', 'build/icon.png']));
    expect(config.electronFuses).toMatchObject({
      runAsNode: true,
      onlyLoadAppFromAsar: true,
      enableNodeOptionsEnvironmentVariable: false,
    });
  });

  it('uses the id the main process registers with Windows', async () => {
    const config = await getConfig(root, 'electron-builder.yml', null);
    expect(config.appId).toBe(APP_ID);
  });

  it('points at icons that exist at the sizes installers need', async () => {
    const config = await getConfig(root, 'electron-builder.yml', null);
    expect(pngSize(path.join(root, config.mac.icon))).toEqual({ width: 1024, height: 1024 });
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      expect(pngSize(path.join(root, config.linux.icon, `${size}x${size}.png`))).toEqual({ width: size, height: size });
    }
    const ico = readFileSync(path.join(root, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1); // type: icon
    const count = ico.readUInt16LE(4);
    const sizes = Array.from({ length: count }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(sizes).toContain(256);
    expect(statSync(path.join(root, 'build/icon.svg')).size).toBeGreaterThan(0);
  });

  it('package.json starts the compiled main process', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/electron/main/main.js');
  });
});
