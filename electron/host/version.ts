import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The app version from package.json (source: two levels up; dist: three). */
export function appVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'parallax' && pkg.version) return pkg.version;
    } catch {
      /* try the next layout */
    }
  }
  return '0.0.0';
}
