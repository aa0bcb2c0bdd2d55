import { describe, expect, it } from 'vitest';
import {
  defaultApprovalPolicy,
  formatApprovalPolicy,
  parseApprovalFlag,
  resolveApprovalPolicy,
} from '../../shared/approval.js';
import { parseSettings } from '../../shared/run-spec.js';

describe('the approval policy', () => {
  it('defaults: run_shell asks unless the shell sandbox runs; fetch_url asks on a folder of the user’s', () => {
    expect(defaultApprovalPolicy({ shellSandbox: 'none', userFolder: false })).toEqual({
      run_shell: 'ask',
      write_file: 'allow',
      fetch_url: 'allow',
    });
    expect(defaultApprovalPolicy({ shellSandbox: 'bubblewrap', userFolder: false })).toEqual({
      run_shell: 'allow',
      write_file: 'allow',
      fetch_url: 'allow',
    });
    expect(defaultApprovalPolicy({ shellSandbox: 'bubblewrap', userFolder: true })).toEqual({
      run_shell: 'allow',
      write_file: 'allow',
      fetch_url: 'ask',
    });
  });

  it('keeps what the user chose and fills in the rest', () => {
    expect(resolveApprovalPolicy({ run_shell: 'deny' }, { shellSandbox: 'bubblewrap', userFolder: true })).toEqual({
      run_shell: 'deny',
      write_file: 'allow',
      fetch_url: 'ask',
    });
    expect(resolveApprovalPolicy(undefined, { shellSandbox: 'none', userFolder: false }).run_shell).toBe('ask');
  });

  it('is part of the run settings, checked like any setting', () => {
    expect(parseSettings({}).approvals).toEqual({});
    expect(parseSettings({ approvals: { write_file: 'deny' } }).approvals).toEqual({ write_file: 'deny' });
    expect(parseSettings({ approvals: { mcp: 'ask' } }).approvals).toEqual({ mcp: 'ask' });
    expect(() => parseSettings({ approvals: { run_shell: 'sometimes' } })).toThrow(/approvals\.run_shell/);
    expect(() => parseSettings({ approvals: { rm: 'allow' } })).toThrow(/approvals/);
  });

  it('reads the CLI flag, and says what is wrong with a bad one', () => {
    expect(parseApprovalFlag('run_shell=ask,write_file=allow')).toEqual({ run_shell: 'ask', write_file: 'allow' });
    expect(parseApprovalFlag(' all=deny , fetch_url=allow ')).toEqual({
      run_shell: 'deny',
      write_file: 'deny',
      fetch_url: 'allow',
      mcp: 'deny',
    });
    expect(parseApprovalFlag('mcp=ask')).toEqual({ mcp: 'ask' });
    expect(parseApprovalFlag('RUN_SHELL:Ask')).toEqual({ run_shell: 'ask' });
    expect(() => parseApprovalFlag('')).toThrow(/at least one tool=mode pair/);
    expect(() => parseApprovalFlag('run_shell')).toThrow(
      /"run_shell" is not a tool=mode pair.*--approve run_shell=ask/,
    );
    expect(() => parseApprovalFlag('calculator=ask')).toThrow(
      /"calculator" .* is not a tool the approval policy covers/,
    );
    expect(() => parseApprovalFlag('run_shell=maybe')).toThrow(/"maybe" .* is not a mode/);
    expect(formatApprovalPolicy({ run_shell: 'ask', fetch_url: 'deny' })).toBe('run_shell=ask, fetch_url=deny');
    expect(formatApprovalPolicy({ mcp: 'deny' })).toBe('mcp=deny');
  });
});
