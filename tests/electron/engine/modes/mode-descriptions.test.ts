/**
 * Every mode described in shared/modes.ts is what its engine adapter does, and every surface knows it: the
 * adapter offers run_code exactly when the description names a program language, in that language, the simulated model tells
 * the mode from the tools it is offered, and the app and report palettes and the CLI's labels have it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveApprovalPolicy } from '../../../../shared/approval.js';
import { describeMode, isModeId, modeLabel, MODE_IDS, MODE_LABELS, MODES } from '../../../../shared/modes.js';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { ApprovalGate } from '../../../../electron/engine/approval/approval-gate.js';
import { createMode } from '../../../../electron/engine/modes/index.js';
import { modeOf } from '../../../../electron/sim/policies/index.js';
import { REPORT_MODE_STYLES } from '../../../../electron/host/reports/report-palette.js';
import { MODE_PALETTE } from '../../../../renderer/lib/mode-palette.js';

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'parallax-modes-'));
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

describe('mode descriptions', () => {
  for (const id of MODE_IDS) {
    it(`${id}: the adapter matches its description and every surface has the mode`, () => {
      const approvals = new ApprovalGate(
        resolveApprovalPolicy(undefined, { shellSandbox: 'none', userFolder: false }),
        () => undefined,
        null,
      );
      const mode = createMode(id, { workspace, settings: DEFAULT_SETTINGS, approvals });
      try {
        const tools = new Set(mode.tools().map((t) => t.name));
        expect(mode.id).toBe(id);
        expect(tools.has('run_code'), 'offers run_code').toBe(MODES[id].program !== null);
        // The language its run_code describes is the one its description names.
        const language = mode
          .tools()
          .find((t) => t.name === 'run_code')
          ?.description.match(/\b(JavaScript|Python)\b/)?.[1];
        expect(language?.toLowerCase() ?? null).toBe(MODES[id].program);
        // A text mode sends no tools parameter: the simulated model reads the format in its system prompt.
        const sent = mode.text ? new Set<string>() : tools;
        const runCode = mode.tools().find((t) => t.name === 'run_code')?.description;
        expect(
          modeOf(sent, { systemPrompt: mode.systemPrompt, runCodeDescription: runCode }),
          'the simulated model reads the mode from its tools',
        ).toBe(id);
        expect(mode.systemPrompt.length).toBeGreaterThan(0);
      } finally {
        mode.dispose?.();
      }
      expect(MODE_PALETTE[id].light.prompt).toBe(MODES[id].colour.light.prompt);
      expect(REPORT_MODE_STYLES[id].color).toBe(MODES[id].colour.light.prompt);
      expect(MODE_LABELS[id]).toBe(MODES[id].label);
      expect(MODES[id].about.length).toBeGreaterThan(10);
    });
  }

  it('has distinct labels, and reads an unknown stored mode as its own id', () => {
    expect(new Set(MODE_IDS.map((m) => MODES[m].label)).size).toBe(MODE_IDS.length);
    expect(isModeId('some-future-mode')).toBe(false);
    expect(isModeId('toString')).toBe(false);
    expect(describeMode('some-future-mode')).toBeNull();
    expect(modeLabel('some-future-mode')).toBe('some-future-mode');
  });
});
