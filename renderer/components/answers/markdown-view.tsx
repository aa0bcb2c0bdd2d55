/** An answer as rendered Markdown (sanitized twice: see renderer/lib/sanitize-markdown.ts), or raw with the reason. */
import { useMemo } from 'react';
import { answerHtml } from '../../lib/sanitize-markdown.js';

export function MarkdownView({ text }: { text: string }) {
  const r = useMemo(() => answerHtml(text), [text]);
  if (!r.ok)
    return (
      <div data-testid="answer-raw-fallback">
        <p className="muted small">{r.reason}</p>
        <pre className="md-raw">{text}</pre>
      </div>
    );
  // The HTML is markdown-it's (no markup of the answer passes) and then DOMPurify's, to the tags it may write.
  return <div className="md" data-testid="answer-md" dangerouslySetInnerHTML={{ __html: r.html }} />;
}

/** Rendered | Raw for every answer at once, so the columns stay comparable. */
export function AnswerViewSwitch({ raw, onChange }: { raw: boolean; onChange: (raw: boolean) => void }) {
  return (
    <span className="seg" role="group" aria-label="Show answers as">
      <button
        type="button"
        className={`seg-btn ${raw ? '' : 'is-active'}`}
        aria-pressed={!raw}
        onClick={() => onChange(false)}
        data-testid="answer-rendered-btn"
      >
        Rendered
      </button>
      <button
        type="button"
        className={`seg-btn ${raw ? 'is-active' : ''}`}
        aria-pressed={raw}
        onClick={() => onChange(true)}
        data-testid="answer-raw-btn"
      >
        Raw
      </button>
    </span>
  );
}
