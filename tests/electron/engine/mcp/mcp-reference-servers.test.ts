/**
 * The four official MCP reference servers (everything, memory, filesystem, sequential-thinking, installed from
 * the registry) through Parallax's MCP layer: their tools' signatures in each language, their annotations,
 * progress, content, the client capabilities they ask for, and how a session ends.
 */
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../../../shared/run-spec.js';
import { openMcpServers } from '../../../../electron/engine/mcp/mcp-servers.js';
import { invokeTool, signatureOf } from '../../../../electron/engine/tools/index.js';
import { pythonSignatureOf } from '../../../../electron/engine/sandbox/python/py-signature.js';
import { runProgram, Sandbox } from '../../../../electron/engine/sandbox/index.js';
import { standardBindings } from '../../../../electron/engine/modes/code/bindings.js';
import { ALL_TOOLS, warmUpTools } from '../../../../electron/engine/tools/index.js';
import { ApprovalGate } from '../../../../electron/engine/approval/approval-gate.js';
import { parseApprovalFlag, resolveApprovalPolicy } from '../../../../shared/approval.js';
import { mcpToolKind } from '../../../../shared/mcp-tools.js';
import { toolOffers } from '../../../../electron/engine/modes/tool-offer.js';
import { toolsetOf } from '../../../../electron/engine/modes/toolsets.js';
import { useMcpConnections } from '../../../helpers/mcp-connections.js';
import {
  referenceServers,
  seedReferenceWorkspace,
  startEverythingHttp,
} from '../../../helpers/mcp-reference-servers.js';

const mcp = useMcpConnections('parallax-mcp-ref-', async (workspace) => {
  await seedReferenceWorkspace(workspace);
  // The search thread starts before any timed search (as a run's warm-up does).
  const [connections] = await Promise.all([openMcpServers(referenceServers(workspace), workspace), warmUpTools()]);
  return connections;
});
const { ctx, tool } = mcp;

describe("signatures of the reference servers' tools", () => {
  it('keeps nested return types in TypeScript and writes integers as integers', () => {
    expect(signatureOf(tool('memory_read_graph'))).toBe(
      'memory_read_graph(): {entities: {name: string, entityType: string, observations: string[]}[], relations: {from: string, to: string, relationType: string}[]}',
    );
    expect(signatureOf(tool('thinking_sequentialthinking'))).toMatch(
      /^thinking_sequentialthinking\(thought: string, nextThoughtNeeded: boolean \| string, thoughtNumber: integer, totalThoughts: integer, isRevision\?: boolean \| string, revisesThought\?: integer/,
    );
  });

  it('writes Python signatures in Python: Literal, list, TypedDict, int, Optional with None', () => {
    expect(pythonSignatureOf(tool('everything_get_annotated_message'))).toBe(
      'def everything_get_annotated_message(messageType: Literal["error", "success", "debug"], includeImage: bool = False) -> str',
    );
    expect(pythonSignatureOf(tool('memory_create_entities'))).toMatch(
      /^def memory_create_entities\(entities: list\[TypedDict\[\{"name": str, "entityType": str, "observations": list\[str\]\}\]\]\) -> TypedDict\[\{"entities": list\[TypedDict\[/,
    );
    expect(pythonSignatureOf(tool('filesystem_read_text_file'))).toBe(
      'def filesystem_read_text_file(path: str, tail: Optional[float] = None, head: Optional[float] = None) -> TypedDict[{"content": str}]',
    );
    expect(pythonSignatureOf(tool('thinking_sequentialthinking'))).toMatch(
      /thoughtNumber: int, totalThoughts: int, isRevision: Optional\[bool \| str\] = None/,
    );
    const python = `${pythonSignatureOf(tool('memory_read_graph'))} ${pythonSignatureOf(tool('filesystem_edit_file'))}`;
    expect(python).not.toMatch(/\bstring\b|\bnumber\b|\bboolean\b| \| "|\[\]|\?:/);
  });

  it("answers a Python program's bad arguments with the Python signature and a Python call", async () => {
    const error = (await invokeTool(tool('memory_open_nodes'), { names: 'Ada' }, ctx(), { language: 'python' }).catch(
      (e: unknown) => e as Error,
    )) as Error;
    expect(error.message).toBe(
      'Invalid arguments for memory_open_nodes: argument "names" must be a list, got str ("Ada"). Signature: def memory_open_nodes(names: list[str]) -> TypedDict[{"entities": list[TypedDict[{"name": str, "entityType": str, "observations": list[str]}]], "relations": list[TypedDict[{"from": str, "to": str, "relationType": str}]]}]. Call it like memory_open_nodes(names=…).',
    );
    const json = (await invokeTool(tool('memory_open_nodes'), { names: 'Ada' }, ctx()).catch(
      (e: unknown) => e as Error,
    )) as Error;
    expect(json.message).toMatch(
      /must be an array, got string \("Ada"\)\. Signature: memory_open_nodes\(names: string\[\]\): \{entities: .*Call it like \{"names": …\}\.$/,
    );
  });
});

describe('search_tools and sessions', () => {
  it('search_tools("") lists every hidden tool, MCP tools included', async () => {
    const { tools, hiddenTools } = standardBindings([...ALL_TOOLS, ...mcp.connections.tools]);
    expect(hiddenTools.length).toBeGreaterThan(30);
    const sandbox = new Sandbox();
    try {
      const result = await runProgram(
        'const all = search_tools(""); print(all.length, all.map((t) => t.name).join(","));',
        {
          tools,
          hiddenTools,
          ctx: ctx(),
          returnTypes: true,
          sandbox,
          limits: { timeoutMs: 10_000, memoryMb: 64, outputChars: 100_000, maxToolCalls: 10 },
        },
      );
      expect(result.error, result.output).toBeNull();
      const [count, names] = result.output.trim().split(' ');
      expect(Number(count)).toBe(hiddenTools.length);
      expect(names.split(',').sort()).toEqual(hiddenTools.map((t) => t.name).sort());
    } finally {
      sandbox.dispose();
    }
  });

  it('ends a streamable HTTP session with DELETE when the run closes its servers', async () => {
    const http = await startEverythingHttp();
    try {
      const remote = await openMcpServers(
        [
          {
            name: 'web',
            transport: 'http',
            url: http.url,
            headers: {},
            startupTimeoutMs: 20_000,
            callTimeoutMs: 10_000,
          },
        ],
        mcp.workspace,
      );
      expect(remote.problems.map((p) => p.message)).toEqual([
        expect.stringMatching(/simulate-research-query" runs only as a task/),
      ]);
      // Over HTTP as over stdio: roots and elicitation reach the client.
      expect(remote.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['web_get_roots_list', 'web_trigger_elicitation_request']),
      );
      await expect(
        invokeTool(remote.tools.find((t) => t.name === 'web_get_sum')!, { a: 1, b: 2 }, ctx()),
      ).resolves.toBe('The sum of 1 and 2 is 3.');
      expect(http.output()).not.toContain('Received session termination request');
      await remote.close();
      expect(http.output()).toMatch(/Received session termination request for session [0-9a-f-]{36}/);
    } finally {
      await http.close();
    }
  });
});

describe("annotations of the reference servers' tools", () => {
  it('keeps title and hints on each tool, as run-started records them and the tool list shows them', () => {
    expect(tool('memory_delete_entities').mcp).toEqual({
      name: 'memory_delete_entities',
      server: 'memory',
      tool: 'delete_entities',
      title: 'Delete Entities',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    });
    expect(tool('everything_get_sum').mcp).toMatchObject({
      tool: 'get-sum',
      title: 'Get Sum Tool',
      annotations: { readOnlyHint: true },
    });
    const records = mcp.connections.tools.map((t) => t.mcp!);
    expect(records.every((r) => r !== undefined && r.server.length > 0)).toBe(true);
    const kinds = Object.fromEntries(records.map((r) => [r.name, mcpToolKind(r.annotations)]));
    expect(kinds).toMatchObject({
      memory_read_graph: 'readonly',
      memory_delete_entities: 'destructive',
      memory_create_entities: 'other',
      filesystem_write_file: 'destructive',
      filesystem_read_text_file: 'readonly',
      thinking_sequentialthinking: 'readonly',
    });
    const offers = toolOffers('code', toolsetOf(parseSettings({}), undefined, mcp.connections.tools), true);
    expect(offers.find((o) => o.name === 'filesystem_move_file')).toMatchObject({
      title: 'Move File',
      annotations: { destructiveHint: true },
    });
  });

  it('lets the approval policy allow read-only tools and deny or ask for destructive ones', async () => {
    const chosen = parseApprovalFlag('mcp=ask,mcp-destructive=deny,mcp-readonly=allow');
    expect(chosen).toEqual({ mcp: 'ask', 'mcp-destructive': 'deny', 'mcp-readonly': 'allow' });
    const policy = resolveApprovalPolicy(chosen, { shellSandbox: 'none', userFolder: false });
    const records = mcp.connections.tools.map((t) => t.mcp!);
    const events: unknown[] = [];
    const gate = new ApprovalGate(
      policy,
      (e) => events.push(e),
      null,
      new Map(records.map((r) => [r.name, r.server])),
      new Map(records.map((r) => [r.name, mcpToolKind(r.annotations)])),
    );
    const place = { step: 1, callId: 'c1', inProgram: false };
    const check = (name: string) => gate.check(name, {}, place, new AbortController().signal);
    await expect(check('memory_read_graph')).resolves.toEqual({ ok: true });
    await expect(check('filesystem_write_file')).resolves.toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^filesystem_write_file is not allowed in this run \(the approval policy says deny\)/,
      ),
    });
    // Neither read-only nor destructive: the mcp entry (ask), and nobody can answer here.
    await expect(check('memory_create_entities')).resolves.toMatchObject({
      ok: false,
      message: expect.stringMatching(/needs the user's approval and this run has no way to ask/),
    });
    // Unset kind entries fall back to mcp, then allow.
    const plain = new ApprovalGate(
      resolveApprovalPolicy({}, { shellSandbox: 'none', userFolder: false }),
      () => undefined,
      null,
      new Map([['filesystem_write_file', 'filesystem']]),
      new Map([['filesystem_write_file', 'destructive' as const]]),
    );
    await expect(plain.check('filesystem_write_file', {}, place, new AbortController().signal)).resolves.toEqual({
      ok: true,
    });
    expect(() => parseApprovalFlag('mcp-sideways=ask')).toThrow(
      /"mcp-sideways" in "mcp-sideways=ask" is not a tool the approval policy covers\. .*mcp-readonly, mcp-destructive/,
    );
  });
});

describe('progress, content and client capabilities with the reference servers', () => {
  it('keeps a call that reports progress alive past its call timeout', async () => {
    const slow = await openMcpServers(referenceServers(mcp.workspace, 3000).slice(0, 1), mcp.workspace);
    try {
      const long = slow.tools.find((t) => t.name === 'everything_trigger_long_running_operation')!;
      const started = Date.now();
      // A report each second against a 3 s timeout: alive for 6 s, however busy the machine.
      await expect(invokeTool(long, { duration: 6, steps: 6 }, ctx())).resolves.toBe(
        'Long running operation completed. Duration: 6 seconds, Steps: 6.',
      );
      expect(Date.now() - started).toBeGreaterThan(5000);
      // With no progress between reports longer than the timeout, it still times out, saying how far it got.
      await expect(invokeTool(long, { duration: 8, steps: 2 }, ctx())).rejects.toThrow(
        /^everything_trigger_long_running_operation \(MCP tool "trigger-long-running-operation" of server "everything"\) failed: .*timed out/i,
      );
    } finally {
      await slow.close();
    }
  });

  it('keeps resource links, embedded resources and images as described text', async () => {
    const links = await invokeTool(tool('everything_get_resource_links'), { count: 1 }, ctx());
    expect(links).toMatch(
      /\[resource link demo:\/\/resource\/dynamic\/\S+ "[^"]+ Resource 1" \(text\/plain\): Resource 1: plaintext resource\]/,
    );
    const blob = await invokeTool(
      tool('everything_get_resource_reference'),
      { resourceType: 'Blob', resourceId: 2 },
      ctx(),
    );
    expect(blob).toMatch(/\[embedded resource demo:\/\/resource\/dynamic\/blob\/2: [a-z/-]+, \d+ bytes\]/);
    const text = await invokeTool(
      tool('everything_get_resource_reference'),
      { resourceType: 'Text', resourceId: 1 },
      ctx(),
    );
    expect(text).toMatch(/Resource 1: This is a plaintext resource/);
    expect(await invokeTool(tool('everything_get_tiny_image'), {}, ctx())).toMatch(/\[image image\/png, \d+\.\d KB\]/);
  });

  it('answers roots with the workspace, declines elicitation, and leaves task-only tools out with a warning', async () => {
    expect(await invokeTool(tool('everything_get_roots_list'), {}, ctx())).toContain(`URI: file://${mcp.workspace}`);
    expect(await invokeTool(tool('everything_trigger_elicitation_request'), {}, ctx())).toMatch(/declined/);
    expect(mcp.connections.tools.some((t) => t.name === 'everything_simulate_research_query')).toBe(false);
    expect(mcp.connections.problems.map((p) => p.message)).toEqual([
      'MCP server "everything": its tool "simulate-research-query" runs only as a task (MCP\'s task-based execution), which Parallax does not support; it is left out.',
    ]);
  });
});
