/** Keyboard shortcut hint; shows ⌘ on macOS and Ctrl elsewhere. */
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export const MOD_KEY = isMac ? '⌘' : 'Ctrl';

export function Kbd({ keys }: { keys: string[] }) {
  return (
    <span className="kbd-group" aria-hidden="true">
      {keys.map((k) => (
        <kbd key={k} className="kbd">
          {k === 'Mod' ? MOD_KEY : k}
        </kbd>
      ))}
    </span>
  );
}
