// Preloaded with `node --import` into a CLI under test: writes "<Date.now()> <specifier>" to the file named by
// PARALLAX_LOAD_PROBE for every module specifier that matches PARALLAX_LOAD_PROBE_MATCH (a regular expression),
// when it is resolved, so a test can tell when a library began to load relative to what a server saw.
import { register } from 'node:module';

register('./load-probe-hooks.mjs', import.meta.url, {
  data: { file: process.env.PARALLAX_LOAD_PROBE, match: process.env.PARALLAX_LOAD_PROBE_MATCH },
});
