/** The built-in tasks' engine side: fixtures, the local test page, task resolution and answer validation. */
export { prepareFixture, DEFAULT_FIXTURE_SEED } from './fixtures.js';
export { startFixtureServer, type FixtureServer } from './fixture-server.js';
export { resolveTask } from './resolve.js';
export { validateAnswer, type ValidateContext } from './validate.js';
export { countLog, generateLogs } from './log-stats.js';
