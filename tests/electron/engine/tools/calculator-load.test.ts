/**
 * The math library loads on a run's first calculator call (most runs never call it). Its load is not the
 * expression's work: a first call with a short time limit still answers, on a busy machine too. In its own file,
 * so this process's compute thread has not loaded the library yet.
 */
import { describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { contextFor } from './helpers.js';

describe('the first calculator call', () => {
  it('answers within a time limit shorter than the library takes to load', async () => {
    const ctx = { ...contextFor(process.cwd()), limits: { calculatorTimeoutMs: 100 } };
    const started = performance.now();
    expect(await invokeTool(findTool('calculator')!, { expression: '123*456+789' }, ctx)).toBe(56877);
    // The call as a whole (thread start and load included) took longer than the expression's limit.
    expect(performance.now() - started).toBeGreaterThan(100);
    expect(await invokeTool(findTool('calculator')!, { expression: '2^10' }, ctx)).toBe(1024);
  });
});
