import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appLayout } from '../engine/app-layout.js';

/** The app version from package.json at the app's root (in the desktop app, inside app.asar: main process only). */
export function appVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(appLayout().appRoot, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (pkg.name === 'parallax' && pkg.version) return pkg.version;
  } catch {
    /* unreadable: say so below */
  }
  return '0.0.0';
}
