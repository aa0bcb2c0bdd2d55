/**
 * A folder of the user's, copied for every run instead of the task's own files. How it is named depends on the
 * host (app:info workspaceFolders): the desktop app's folder dialog, or a path typed inside the folders the web
 * host was started with (`parallax serve --allow-dir`). The host checks it again either way.
 */
import { chooseWorkspaceFolder } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors, uiSelectors } from '../../store/selectors.js';
import { IconX } from '../common/icons.js';

export function WorkspaceField() {
  const folders = useApp(uiSelectors.appInfo)?.workspaceFolders;
  const form = useApp(composerSelectors.form);
  const setForm = useApp((s) => s.setForm);
  if (!folders) return null;
  const clear = () => setForm({ workspaceDir: '', workspaceHandle: null });

  if (folders.picker === 'dialog') {
    const chosen = form.workspaceHandle ? form.workspaceDir : null;
    return (
      <div className="field workspace-field" data-testid="workspace-field">
        <span className="label">Workspace</span>
        <div className="input-row">
          <span
            className={`workspace-path mono ${chosen ? '' : 'muted'}`}
            title={chosen ?? undefined}
            data-testid="workspace-path"
          >
            {chosen ?? 'The task’s own files'}
          </span>
          {chosen ? (
            <button
              type="button"
              className="icon-btn bordered"
              onClick={clear}
              aria-label="Use the task’s own files"
              title="Use the task’s own files"
            >
              <IconX size={13} />
            </button>
          ) : null}
          <button
            type="button"
            className="btn"
            onClick={() => void chooseWorkspaceFolder()}
            data-testid="workspace-choose"
          >
            Choose folder…
          </button>
        </div>
        <p className="field-hint">Each run works on its own copy; your folder is never changed.</p>
      </div>
    );
  }

  const allowed = folders.allowedDirs;
  return (
    <div className="field workspace-field" data-testid="workspace-field">
      <label className="label" htmlFor="workspace-dir">
        Workspace folder <span className="label-hint">(optional)</span>
      </label>
      <input
        id="workspace-dir"
        className="input mono"
        value={form.workspaceDir ?? ''}
        placeholder={allowed.length ? `${allowed[0]}/…` : 'No folders allowed on this host'}
        disabled={allowed.length === 0}
        onChange={(e) => setForm({ workspaceDir: e.target.value, workspaceHandle: null })}
        spellCheck={false}
        data-testid="workspace-dir"
      />
      <p className="field-hint">
        {allowed.length
          ? `Copied for each run instead of the task’s files. Must be inside ${allowed.join(' or ')}.`
          : 'To use a folder of yours, start the web host with parallax serve --allow-dir <folder>.'}
      </p>
    </div>
  );
}
