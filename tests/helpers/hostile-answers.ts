/**
 * Answers a model could send to break out of the page that shows them: scripts, event handlers, remote
 * images, javascript: links, HTML comments, a huge answer and a nesting bomb. The report tests and the app's
 * e2e test put them in runs' final answers and check what the page makes of them.
 */

/** Markdown that should render (heading, list, emphasis, a safe link, code) around every attack. */
export const HOSTILE_ANSWER = [
  '# Result',
  '',
  'The **answer** is `42`, see [the docs](https://example.com/docs) and <https://example.com/auto>.',
  '',
  '- first <script>window.__pwned = 1; alert("script")</script>',
  '- second <img src="http://127.0.0.1:9/pixel.png" onerror="window.__pwned = 2; alert(\'img\')">',
  '- third [click me](javascript:window.__pwned=3) and [also](JAVASCRIPT:alert(4)) and [data](data:text/html,<script>alert(5)</script>)',
  '- fourth ![tracker](http://127.0.0.1:9/tracker.png) <!-- a hidden comment --> visible',
  '',
  '<div onmouseover="window.__pwned = 6">hover</div> <svg onload="alert(7)"></svg> <iframe src="http://127.0.0.1:9/"></iframe>',
  '',
  '[title attack](https://example.com "x\\" onmouseover=\\"alert(8)")',
  '',
  '```html',
  '<script>alert("in code")</script>',
  '```',
].join('\n');

/** The same answer with a few words changed: what the word diff should mark. */
export const HOSTILE_ANSWER_B = HOSTILE_ANSWER.replace('is `42`', 'is `43`').replace('first', 'initial');

/** Over the Markdown cap: shown raw, whole. */
export const HUGE_ANSWER = `${'A long line of an answer that goes on. '.repeat(6000)}END`;

/** Quotes nested far past the cap: shown raw, never cut. */
export const NESTED_BOMB = `${'> '.repeat(3000)}deep`;

/** Strings that must never appear as live markup in a page that shows HOSTILE_ANSWER. */
export const PWNED_FLAG = '__pwned';
