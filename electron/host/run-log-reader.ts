/**
 * Reading one run's JSONL back: a log up to 1 MiB in one read, a larger one line by line from a stream (a run log
 * can be large; it is then never read into one string), every line checked against the StepEvent schema. What is wrong is sorted in two:
 * - warnings: what a host that stopped mid-run leaves behind (a torn last line) and seq gaps;
 * - problems: damage — a line that is not JSON, not an event of this run, or an event missing its fields.
 * Either way the good events are kept and the reader goes on.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { StepEvent } from '../../shared/step-event.js';
import { checkStepEvent } from '../../shared/step-event-schema.js';

export interface LoadedRun {
  readonly events: StepEvent[];
  readonly warnings: string[];
  /** Damage found in the file, one sentence each (the comparison is listed as damaged with these). */
  readonly problems: string[];
}

export interface ReadOptions {
  /** The run is still being written, so a partial last line is expected and not reported. */
  readonly live?: boolean;
  /** Keep only the events this returns true for (the history list needs no tool outputs); all are checked. */
  readonly keep?: (event: StepEvent) => boolean;
}

/** Logs up to this size are read in one piece; larger ones are streamed line by line. */
const WHOLE_READ_BYTES = 1 << 20;

/** Most problems reported per file; the rest are counted. */
const MAX_PROBLEMS = 5;

class RunLogParser {
  readonly events: StepEvent[] = [];
  readonly warnings: string[] = [];
  readonly problems: string[] = [];
  private extraProblems = 0;
  private lastSeq = -1;
  private kept = 0;

  constructor(
    private readonly runId: string,
    private readonly file: string,
    private readonly options: ReadOptions,
  ) {}

  private problem(text: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(`${this.file}: ${text}`);
    else this.extraProblems++;
  }

  line(text: string, lineNo: number, isLast: boolean): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!isLast) this.problem(`line ${lineNo} is not JSON (${text.length} characters); it was skipped.`);
      else if (!this.options.live) {
        this.warnings.push(
          `${this.file}: skipped a torn last line (${text.length} characters) — the host stopped while writing it; the ${this.kept} events before it are intact.`,
        );
      }
      return;
    }
    const checked = checkStepEvent(value);
    if (!checked.ok) {
      this.problem(`line ${lineNo} was skipped: ${checked.problem}.`);
      return;
    }
    const event = checked.event;
    if (event.runId !== this.runId) {
      this.problem(
        `line ${lineNo} was skipped: it is an event of run ${JSON.stringify(event.runId)}, not of ${this.runId}.`,
      );
      return;
    }
    const expected = this.lastSeq + 1;
    if (event.seq !== expected)
      this.warnings.push(
        `${this.file}: seq jumps from ${expected - 1} to ${event.seq} at line ${lineNo}; some events are missing.`,
      );
    this.lastSeq = event.seq;
    this.kept++;
    if (!this.options.keep || this.options.keep(event)) this.events.push(event);
  }

  unreadable(err: unknown): void {
    const code = (err as NodeJS.ErrnoException)?.code;
    this.problem(`could not be read (${code ?? (err as Error)?.message ?? String(err)}); its events are missing.`);
  }

  result(): LoadedRun {
    if (this.extraProblems > 0)
      this.problems.push(
        `${this.file}: ${this.extraProblems} more damaged line${this.extraProblems === 1 ? '' : 's'} skipped.`,
      );
    return { events: this.events, warnings: this.warnings, problems: this.problems };
  }
}

/** Parse one run's JSONL held in memory (tests, and readers that already have the text). */
export function parseRunLog(text: string, runId: string, file: string, live = false): LoadedRun {
  const parser = new RunLogParser(runId, file, { live });
  const lines = text.split('\n');
  lines.forEach((line, i) => parser.line(line.replace(/\r$/, ''), i + 1, i === lines.length - 1));
  return parser.result();
}

/** Stream one run's JSONL from disk. A missing file is an empty run; an unreadable one is a problem. */
export async function readRunLog(
  path: string,
  runId: string,
  file: string,
  options: ReadOptions = {},
): Promise<LoadedRun> {
  const parser = new RunLogParser(runId, file, options);
  let fh: FileHandle;
  try {
    // Non-blocking, so a FIFO planted in place of a log cannot hang the reader; it is refused below.
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') parser.unreadable(err);
    return parser.result();
  }
  try {
    // A torn write is a last line without its newline; a bad line that did get its newline is damage.
    const info = await fh.stat();
    if (!info.isFile()) {
      parser.unreadable(new Error('it is not a regular file'));
      return parser.result();
    }
    const { size } = info;
    if (size <= WHOLE_READ_BYTES) {
      // Most logs are small: one read and a split cost a fraction of a stream and readline (a cold index
      // rebuild reads thousands). Lines end as readline ends them: \r\n, \n or a lone \r.
      const buf = Buffer.alloc(size);
      let got = 0;
      while (got < size) {
        const { bytesRead } = await fh.read(buf, got, size - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      const lines = buf.toString('utf8', 0, got).split(/\r\n|\n|\r/);
      const torn = got > 0 && buf[got - 1] !== 0x0a;
      // After a final line break, split leaves one empty string: not a line (readline gives none either).
      if (lines.at(-1) === '') lines.pop();
      lines.forEach((line, i) => parser.line(line, i + 1, torn && i === lines.length - 1));
      return parser.result();
    }
    const last = Buffer.alloc(1);
    if (size > 0) await fh.read(last, 0, 1, size - 1);
    const endsWithNewline = size === 0 || last[0] === 0x0a;
    const lines = createInterface({
      input: fh.createReadStream({ encoding: 'utf8', autoClose: false }),
      crlfDelay: Infinity,
    });
    // Each line is handled one behind, so the last one is known to be last.
    let pending: string | null = null;
    let lineNo = 0;
    for await (const line of lines) {
      if (pending !== null) parser.line(pending, lineNo, false);
      pending = line;
      lineNo++;
    }
    if (pending !== null) parser.line(pending, lineNo, !endsWithNewline);
  } catch (err) {
    parser.unreadable(err);
  } finally {
    await fh.close().catch(() => undefined);
  }
  return parser.result();
}

/** A run whose log holds nothing and showed no damage: its round never began (a log that cannot be read is damage). */
export function neverStarted(loaded: LoadedRun): boolean {
  return loaded.events.length === 0 && loaded.problems.length === 0 && loaded.warnings.length === 0;
}
