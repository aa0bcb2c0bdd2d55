/**
 * Comparison and run ids: safe as a single path segment (no separators, no leading dot). Apart from the schema
 * (comparison-meta-schema.ts) so the history's quick paths check ids without loading zod.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
