/**
 * Tools a built-in task brings to its run, on top of the run's tool profile: every mode offers them its own
 * way (ReAct schemas, the Code Mode and Hybrid hidden tools, ReAct + tool search's hidden tools), so a
 * comparison stays fair. Free-text tasks and the other built-in tasks bring none.
 */
import { DEMO_CATALOG } from '../tools/demo-catalog.js';
import type { ToolDefinition } from '../tools/tool.js';
import { webSearch } from '../tools/web-search.js';

export function taskTools(taskId: string | null | undefined): readonly ToolDefinition[] {
  switch (taskId) {
    case 'tool-catalog':
      return DEMO_CATALOG;
    case 'web-lookup':
      return [webSearch];
    default:
      return [];
  }
}
