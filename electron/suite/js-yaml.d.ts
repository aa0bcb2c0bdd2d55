/** The part of js-yaml 4 Parallax uses (the package ships no types). */
declare module 'js-yaml' {
  export interface LoadOptions {
    readonly filename?: string;
    /** Later duplicate keys override earlier ones instead of throwing. */
    readonly json?: boolean;
  }
  export function load(text: string, options?: LoadOptions): unknown;
  export class YAMLException extends Error {
    readonly reason: string;
    readonly mark?: { readonly line: number; readonly column: number };
  }
}
