/** Built-in tasks (title + what each exercises) or the user's own task text. */
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors } from '../../store/selectors.js';
import { WorkspaceField } from './workspace-field.js';

export function TaskPicker({ error }: { error?: string }) {
  const form = useApp(composerSelectors.form);
  const setForm = useApp((s) => s.setForm);
  const selected = BUILTIN_TASKS.find((t) => t.id === form.taskChoice);
  const simulated = form.providerName === 'simulated';
  return (
    <fieldset className="field-group" aria-describedby={error ? 'task-error' : undefined}>
      <legend className="group-title">Task</legend>
      <div className="task-list" role="radiogroup" aria-label="Task">
        {BUILTIN_TASKS.map((t) => (
          <label
            key={t.id}
            className={`task-option ${form.taskChoice === t.id ? 'is-selected' : ''}`}
            data-testid={`task-${t.id}`}
          >
            <input
              type="radio"
              name="task"
              value={t.id}
              checked={form.taskChoice === t.id}
              onChange={() => setForm({ taskChoice: t.id })}
            />
            <span className="task-text">
              <span className="task-title">{t.title}</span>
              <span className="task-about">{t.about}</span>
            </span>
          </label>
        ))}
        <label className={`task-option ${form.taskChoice === 'custom' ? 'is-selected' : ''}`} data-testid="task-custom">
          <input
            type="radio"
            name="task"
            value="custom"
            checked={form.taskChoice === 'custom'}
            onChange={() => setForm({ taskChoice: 'custom' })}
          />
          <span className="task-text">
            <span className="task-title">Your own task</span>
            <span className="task-about">Free text, run against an empty workspace.</span>
          </span>
        </label>
      </div>
      {form.taskChoice === 'custom' ? (
        <textarea
          className={`input textarea ${error ? 'is-invalid' : ''}`}
          rows={4}
          placeholder="Describe what the agent should do…"
          value={form.customTask}
          onChange={(e) => setForm({ customTask: e.target.value })}
          aria-label="Task text"
          aria-invalid={!!error}
          data-testid="custom-task"
          autoFocus
        />
      ) : selected ? (
        <p className="task-prompt" title="The prompt sent to the model">
          {selected.text.replace('{{FIXTURE_URL}}', 'a local test page')}
        </p>
      ) : null}
      {form.taskChoice === 'custom' && simulated ? (
        <p className="field-hint is-warn" data-testid="sim-free-text-warning">
          The simulated model only knows the built-in tasks: it will say so, and each run ends as “No policy
          (simulated)”, not as an answer. Choose a real provider under Model to run your own task.
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id="task-error" role="alert">
          {error}
        </p>
      ) : null}
      <WorkspaceField />
    </fieldset>
  );
}
