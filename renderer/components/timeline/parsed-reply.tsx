/**
 * A text ReAct reply as the engine read it: the Thought, each Action with its Input as written, the Final
 * Answer (or, when the run ended on a reply refused, filtered, cut short or empty, what it wrote as one, which is
 * not the run's answer) or the parse error that went back as the observation (or did not: the run ended on the
 * reply), and the raw text on demand (with the part the parser dropped: anything from its own "Observation:" on).
 */
import type { ModelResponseEvent, ParsedReply } from '../../../shared/step-event.js';
import { fmtInt } from '../../lib/display-format.js';
import { IconAlert } from '../common/icons.js';
import { ExpandableText, useExpanded } from './expandable-text.js';
import { replyEnding } from '../../../shared/reply-ending.js';

export function ParsedReplyView({
  id,
  response,
  parsed,
}: {
  id: string;
  response: ModelResponseEvent;
  parsed: ParsedReply;
}) {
  const [raw, setRaw] = useExpanded(`${id}:raw`);
  const dropped = response.text.length - parsed.kept;
  const acting = response.toolCalls.length > 0;
  // A reply refused or filtered ends the run, one cut short or empty too when it calls nothing (shared/reply-ending.ts): nothing of it goes back.
  const ending = replyEnding(response);
  const ended = ending === 'filtered' || (!acting && ending !== 'reply');
  return (
    <div className="parsed-reply" data-testid="parsed-reply">
      <dl className="react-fields">
        <dt>Thought</dt>
        <dd>
          {parsed.thought !== null ? (
            <ExpandableText
              id={`${id}:thought`}
              text={parsed.thought}
              lines={4}
              className="assistant-text"
              label="Thought"
            />
          ) : (
            <span className="muted small">none written</span>
          )}
        </dd>
        {response.toolCalls.map((call, i) => (
          <ActionFields
            key={call.id}
            n={response.toolCalls.length > 1 ? i + 1 : null}
            name={call.name}
            input={call.arguments}
          />
        ))}
        {parsed.finalAnswer !== null ? (
          <>
            <dt>Final Answer</dt>
            <dd>
              {ended ? (
                <p className="inline-err small" data-testid="final-not-answer">
                  Not the run's answer: {NOT_ANSWER[ending]}.
                </p>
              ) : acting ? (
                <p className="inline-warn small">Set aside: it came before the results of the actions.</p>
              ) : null}
              <ExpandableText
                id={`${id}:final`}
                text={parsed.finalAnswer}
                lines={6}
                className="assistant-text"
                label="Final Answer"
              />
            </dd>
          </>
        ) : null}
        {parsed.parseError !== null ? (
          <>
            <dt className="inline-err">
              <IconAlert size={12} /> Not read
            </dt>
            <dd className="parse-error" data-testid="parse-error">
              {parsed.parseError}{' '}
              <span className="muted">
                {ended ? '(not sent back: the run ended on this reply)' : '(sent back as the observation)'}
              </span>
            </dd>
          </>
        ) : null}
      </dl>
      <button
        type="button"
        className="expand-btn"
        aria-expanded={raw}
        onClick={() => setRaw(!raw)}
        data-testid="raw-toggle"
      >
        {raw ? 'Hide raw text' : `Raw text · ${fmtInt(response.text.length)} chars`}
        {dropped > 0 ? ` · ${fmtInt(dropped)} dropped` : ''}
      </button>
      {raw ? (
        <div className="call-section raw-reply">
          {dropped > 0 ? (
            <p className="inline-warn small">
              The last {fmtInt(dropped)} chars, from the model's own "Observation:" line, were dropped: never read as a
              tool result, not sent back.
            </p>
          ) : null}
          <ExpandableText id={`${id}:raw-text`} text={response.text} lines={12} label="Raw reply" copy="reply" />
        </div>
      ) : null}
    </div>
  );
}

const NOT_ANSWER: Record<ReturnType<typeof replyEnding>, string> = {
  filtered: 'the provider refused or filtered the reply',
  'cut-short': 'the reply was cut short at the token limit',
  empty: 'the reply was empty',
  reply: '',
};

function ActionFields({ n, name, input }: { n: number | null; name: string; input: string }) {
  return (
    <>
      <dt>Action{n !== null ? ` ${n}` : ''}</dt>
      <dd className="mono" data-testid="parsed-action">
        {name}
      </dd>
      <dt>Input</dt>
      <dd>
        <pre className="args-block">{input || '(none)'}</pre>
      </dd>
    </>
  );
}
