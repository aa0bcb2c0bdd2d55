/**
 * Under an agent row: what its program will see, asked of the host as the command is typed (`agents:view`,
 * engine/agent/agent-launch.ts): the program as it will run, what is shown read-only and why, the words of
 * the command that are not shown, and whether this machine sandboxes it at all.
 */
import { useEffect, useState } from 'react';
import type { AgentView } from '../../../shared/agent-command.js';
import { agentCommandLine } from '../../../shared/agent-command.js';
import { invoke } from '../../api/client.js';
import { agentPathList, agentWords } from '../../store/composer-variants.js';

type Sight =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ok'; readonly view: AgentView }
  | { readonly kind: 'error'; readonly message: string };

/** Waits this long after the last keystroke before asking the host (it may ask a version manager's shim). */
const ASK_AFTER_MS = 400;

export function AgentSight({ command, paths }: { command: string; paths: string }) {
  const [sight, setSight] = useState<Sight>({ kind: 'idle' });
  useEffect(() => {
    const words = agentWords(command);
    if (typeof words === 'string') {
      setSight({ kind: 'idle' });
      return;
    }
    const listed = agentPathList(paths);
    let live = true;
    const timer = setTimeout(() => {
      setSight({ kind: 'loading' });
      invoke('agents:view', { command: words, ...(listed.length ? { paths: listed } : {}) }).then(
        (view) => live && setSight({ kind: 'ok', view }),
        (err: unknown) =>
          live && setSight({ kind: 'error', message: err instanceof Error ? err.message : String(err) }),
      );
    }, ASK_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [command, paths]);
  if (sight.kind === 'idle') return null;
  return (
    <div className="agent-sight" data-testid="variant-agent-view" aria-live="polite">
      {sight.kind === 'loading' ? <p className="field-hint">Finding what it will see…</p> : null}
      {sight.kind === 'error' ? (
        <p className="field-error" data-testid="variant-agent-view-error">
          Cannot run: {sight.message}
        </p>
      ) : null}
      {sight.kind === 'ok' ? <SightList view={sight.view} /> : null}
    </div>
  );
}

function SightList({ view }: { view: AgentView }) {
  const { launch, sandbox } = view;
  const boxed = sandbox.kind === 'bubblewrap';
  return (
    <>
      <p className="field-hint">
        Runs <code>{agentCommandLine({ command: launch.argv })}</code>
      </p>
      <p className="field-hint">
        {boxed
          ? 'In a bubblewrap sandbox it sees, read-only, the system folders and:'
          : 'No OS sandbox on this machine: it can read and write your files. Where bubblewrap works it would see, read-only, the system folders and:'}
      </p>
      <ul className="agent-sight-list" data-testid="variant-agent-shown">
        {launch.shown.length === 0 ? <li>nothing else</li> : null}
        {launch.shown.map((s) => (
          <li key={s.path}>
            <code>{s.path}</code> — {s.why}
          </li>
        ))}
      </ul>
      {launch.hidden.length > 0 ? (
        <p className="field-hint" data-testid="variant-agent-hidden">
          Not shown (arguments, not code): {launch.hidden.map((h) => h.path).join(', ')}. Add a path below to show it.
        </p>
      ) : null}
      {launch.notes.map((n) => (
        <p key={n} className="field-hint">
          {n}
        </p>
      ))}
    </>
  );
}
