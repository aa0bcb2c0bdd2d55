/**
 * Every line the CLI prints goes through here, so that text from a model, a tool, a file or a stored record
 * is inert on the terminal (shared/inert-text.ts): human text has its control and bidi characters shown
 * escaped, JSON carries them as \u escapes (the same value), and a document (a Markdown or HTML report)
 * written to stdout is escaped when stdout is a terminal and left byte for byte when it goes to a file or
 * pipe. tests/electron/cli/terminal.test.ts checks that no other CLI file writes to stdout or stderr itself.
 */
import { inert, inertJson } from '../../shared/inert-text.js';

type Stream = NodeJS.WriteStream | NodeJS.WritableStream;

/** Human text to stdout, one line (a newline is added). */
export function say(text: string): void {
  process.stdout.write(`${inert(text)}\n`);
}

/** Human text to stderr, one line (a newline is added). */
export function warn(text: string): void {
  process.stderr.write(`${inert(text)}\n`);
}

/** Human text to a given stream, as it is (no newline added). */
export function write(stream: Stream, text: string): void {
  stream.write(inert(text));
}

/** A value as pretty JSON to stdout. */
export function sayJson(value: unknown): void {
  process.stdout.write(`${inertJson(JSON.stringify(value, null, 2))}\n`);
}

/** One JSON line to a stream (an event log, for example). */
export function jsonLine(stream: Stream, value: unknown): void {
  stream.write(`${inertJson(JSON.stringify(value))}\n`);
}

/** A whole document to stdout; resolves once it is written. */
export function sayDocument(content: string): Promise<void> {
  const text = process.stdout.isTTY ? inert(content) : content;
  return new Promise<void>((done, fail) => process.stdout.write(text, (err) => (err ? fail(err) : done())));
}
