// The resolve hook of load-probe.mjs (module hooks run on their own thread).
import { appendFileSync } from 'node:fs';

let file = '';
let match = /$^/;

export function initialize(data) {
  file = data.file;
  match = new RegExp(data.match);
}

export async function resolve(specifier, context, next) {
  if (file && match.test(specifier)) appendFileSync(file, `${Date.now()} ${specifier}\n`);
  return next(specifier, context);
}
