/**
 * The macOS Seatbelt profile for run_shell, tested as data (macOS cannot run here): parsed and evaluated
 * rule by rule with the language's own precedence (seatbelt-eval.ts). What must hold: writes only to the
 * workspace and the private temp folder, no reads of any home folder outside the workspace, no network.
 */
import { describe, expect, it } from 'vitest';
import { sbplString, seatbeltProfile } from '../../../../electron/engine/sandbox/seatbelt.js';
import { SeatbeltProfile } from './seatbelt-eval.js';

const home = '/Users/ada';
// Parallax's data folder (and so a run's workspace) sits inside the home folder on a Mac.
const workspace = `${home}/Library/Application Support/Parallax/runs/r1/ws`;
const temp = '/private/var/folders/xy/T/parallax-sh-abc';
const profile = new SeatbeltProfile(seatbeltProfile({ workspace, temp, home }));
const read = (path: string, directory = false) =>
  profile.allows({ op: directory ? 'file-read-data' : 'file-read-data', path, directory });
const write = (path: string) =>
  profile.allows({ op: 'file-write-create', path }) || profile.allows({ op: 'file-write-data', path });

describe('the Seatbelt profile', () => {
  it('parses: version 1, everything denied unless allowed', () => {
    expect(profile.version).toBe('1');
    expect(profile.allows({ op: 'iokit-open' })).toBe(false);
    expect(profile.allows({ op: 'process-exec', path: '/bin/ls' })).toBe(true);
    expect(profile.allows({ op: 'process-fork' })).toBe(true);
  });

  it('reads and writes in the workspace and the private temp folder', () => {
    for (const p of [`${workspace}/app.log`, `${workspace}/sub/deep/file.txt`, `${temp}/scratch`]) {
      expect(read(p)).toBe(true);
      expect(write(p)).toBe(true);
    }
  });

  it('no reads of the home folder outside the workspace: keys, shell history, documents, other runs', () => {
    for (const p of [
      `${home}/.ssh/id_ed25519`,
      `${home}/.zsh_history`,
      `${home}/Documents/tax.pdf`,
      `${home}/.aws/credentials`,
      `${home}/Library/Application Support/Parallax/runs/r2/ws/secret.txt`,
      '/Users/bob/notes.txt',
      '/Volumes/Backup/x',
      '/private/var/root/.ssh/id_rsa',
    ]) {
      expect(read(p), p).toBe(false);
      expect(write(p), p).toBe(false);
    }
    // A sibling whose name merely starts with the workspace's is not inside it.
    expect(read(`${workspace}-other/secret.txt`)).toBe(false);
    // Folder metadata on the way (realpath through /Users/ada) is allowed; listing the home folder is not.
    expect(profile.allows({ op: 'file-read-metadata', path: home, directory: true })).toBe(true);
    expect(profile.allows({ op: 'file-read-data', path: home, directory: true })).toBe(false);
  });

  it('reads the system (tools work), writes nowhere outside its two folders', () => {
    for (const p of ['/usr/bin/grep', '/bin/sh', '/System/Library/CoreServices/SystemVersion.plist', '/etc/hosts'])
      expect(read(p), p).toBe(true);
    for (const p of [
      '/etc/hosts',
      '/usr/local/bin/git',
      '/private/tmp/x',
      '/tmp/x',
      '/Applications/Parallax.app/Contents/Resources/app.asar',
      `${home}/.zshrc`,
      '/Library/LaunchDaemons/evil.plist',
    ]) {
      expect(write(p), p).toBe(false);
    }
    expect(write('/dev/null')).toBe(true);
    expect(write('/dev/disk0')).toBe(false);
  });

  it('no network of any kind: outbound, bind, Unix sockets', () => {
    for (const op of ['network-outbound', 'network-inbound', 'network-bind'])
      expect(profile.allows({ op }), op).toBe(false);
    expect(profile.allows({ op: 'network-outbound', path: '/private/var/run/mDNSResponder' })).toBe(false);
  });

  it('without a workspace (a probe), only the temp folder is writable', () => {
    const bare = new SeatbeltProfile(seatbeltProfile({ workspace: null, temp, home }));
    expect(bare.allows({ op: 'file-write-create', path: `${temp}/x` })).toBe(true);
    expect(bare.allows({ op: 'file-write-create', path: `${workspace}/x` })).toBe(false);
  });

  it("refuses paths that could break out of the profile's strings or would match nothing", () => {
    expect(() => sbplString('/Users/ada/x") (allow file-write* (subpath "/')).toThrow(/cannot hold/);
    expect(() => sbplString('/tmp/a\nb')).toThrow(/cannot hold/);
    expect(() => sbplString('relative/ws')).toThrow(/absolute and normalized/);
    expect(() => sbplString('/Users/ada/ws/../../bob')).toThrow(/absolute and normalized/);
    expect(sbplString('/Users/ada/My Files/ws')).toBe('"/Users/ada/My Files/ws"');
  });
});
