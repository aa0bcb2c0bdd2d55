/**
 * Where history lives. The Electron shell passes app.getPath('userData') instead; the CLI and the web host
 * use this, so all three find the same comparisons on one machine.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function resolveDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env.PARALLAX_DATA_DIR?.trim();
  if (override) return override;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Parallax');
  if (platform === 'win32') return join(env.APPDATA?.trim() || join(home, 'AppData', 'Roaming'), 'Parallax');
  const xdg = env.XDG_DATA_HOME?.trim();
  return join(xdg || join(home, '.local', 'share'), 'parallax');
}
