/**
 * Tells, as fragments arrive, whether a tool call's arguments already form one complete JSON object or array,
 * in one pass over the text (no re-parsing per fragment). Used to recognise a second call that arrives under
 * the same index or id as a finished one: text appended to a complete value could never be valid JSON.
 */
export class JsonCompleteness {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;

  /** True once an object or array has opened and closed again (outside strings). */
  get complete(): boolean {
    return this.started && this.depth === 0;
  }

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 123 /* { */ || c === 91 /* [ */) {
        this.depth++;
        this.started = true;
      } else if ((c === 125 /* } */ || c === 93) /* ] */ && this.depth > 0) this.depth--;
    }
  }
}
