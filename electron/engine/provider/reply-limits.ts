/**
 * Bounds on one reply beyond its size (wire-reader.ts's MAX_REPLY_CHARS): a hostile or broken server could fill
 * 32 MB with tiny tool-call fragments (each one a call to run) or name a content block at index 4,000,000,000
 * (an array that long takes minutes to walk). Past a bound the reply is refused whole: nothing of it runs.
 */

/** Most tool calls one reply may ask for (real replies ask for a handful; OpenAI offers at most 128 tools). */
export const MAX_CALLS_PER_REPLY = 256;
/** Most content blocks one Messages API reply may hold, and so the highest block index. */
export const MAX_BLOCKS_PER_REPLY = 1024;
/** Largest token count believed for one request (no model's context is near it); above it, the count is not a count. */
export const MAX_TOKEN_COUNT = 1_000_000_000;

/** A reply past one of these bounds; the provider's client turns it into a ModelRequestError naming the server. */
export class ReplyLimitError extends Error {}

export const tooManyCalls = () =>
  new ReplyLimitError(
    `sent more than ${MAX_CALLS_PER_REPLY} tool calls in one reply; the reply was refused and none of its calls ran (a model repeating itself, or a broken server). Try again, or lower the task's scope.`,
  );
