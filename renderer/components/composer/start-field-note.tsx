/** Under a field a start error names (shared/start-errors.ts); the error itself is at the foot of the composer. */
import { IconAlert } from '../common/icons.js';

export function StartFieldNote() {
  return (
    <p className="field-error" data-testid="start-field-note">
      <IconAlert size={12} /> The check before starting failed here: see “Could not start” below.
    </p>
  );
}
