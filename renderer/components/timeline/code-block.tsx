/** A Code Mode program, highlighted, with line numbers and the failing line marked with its message. */
import { useMemo } from 'react';
import type { CodeError } from '../../../shared/step-event.js';
import { highlightLines } from '../../lib/highlight.js';
import { CopyButton } from '../common/copy-button.js';

export function CodeBlock({ code, error }: { code: string; error: CodeError | null }) {
  const lines = useMemo(() => highlightLines(code), [code]);
  const failing = error?.line ?? null;
  return (
    <div className="code-block" data-testid="code-block">
      <CopyButton text={code} what="program" className="copy-corner" />
      <pre className="hljs">
        {lines.map((html, i) => {
          const n = i + 1;
          const bad = n === failing;
          return (
            <div
              key={n}
              className={`code-line ${bad ? 'is-error' : ''}`}
              data-line={n}
              data-error-line={bad ? 'true' : undefined}
            >
              <span className="code-ln" aria-hidden="true">
                {n}
              </span>
              <code dangerouslySetInnerHTML={{ __html: html || ' ' }} />
              {bad ? (
                <span className="code-line-msg" role="note">
                  {error!.column !== null ? `col ${error!.column}: ` : ''}
                  {error!.message}
                </span>
              ) : null}
            </div>
          );
        })}
      </pre>
    </div>
  );
}
