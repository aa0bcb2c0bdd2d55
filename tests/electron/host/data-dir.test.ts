import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../electron/host/data-dir.js';

describe('resolveDataDir', () => {
  it('prefers PARALLAX_DATA_DIR, then the platform user-data folder', () => {
    expect(resolveDataDir({ PARALLAX_DATA_DIR: '/data/px', XDG_DATA_HOME: '/x' }, 'linux', '/home/u')).toBe('/data/px');
    expect(resolveDataDir({ XDG_DATA_HOME: '/x' }, 'linux', '/home/u')).toBe(join('/x', 'parallax'));
    expect(resolveDataDir({ XDG_DATA_HOME: '  ' }, 'linux', '/home/u')).toBe(
      join('/home/u', '.local', 'share', 'parallax'),
    );
    expect(resolveDataDir({}, 'darwin', '/Users/u')).toBe(
      join('/Users/u', 'Library', 'Application Support', 'Parallax'),
    );
    expect(resolveDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toBe(
      join('C:\\Users\\u\\AppData\\Roaming', 'Parallax'),
    );
  });
});
