/** The conversation as Messages API blocks: one user turn per run of tool results and user text, exact pairing. */
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_CONTENT, toMessagesBody } from '../../../../electron/engine/provider/anthropic-messages.js';

const TOOLS = [
  { name: 'read_file', description: 'Read.', parameters: { type: 'object' } },
  { name: 'list_dir', description: 'List.', parameters: { type: 'object' } },
];

describe('toMessagesBody', () => {
  it('joins system prompts apart, merges tool results and the user text after them into one turn, and builds tool_use from calls written elsewhere', () => {
    const body = toMessagesBody(
      [
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'Task.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
            { id: 'b', type: 'function', function: { name: 'list_dir', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'X' },
        { role: 'tool', tool_call_id: 'b', content: 'Error: bad', is_error: true },
        { role: 'user', content: 'Observation noted.' },
        {
          role: 'assistant',
          content: 'Done.',
          [ANTHROPIC_CONTENT]: [
            { type: 'thinking', thinking: 't', signature: 's' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ],
      TOOLS,
      'off',
    );
    expect(body.system).toBe('Rules.');
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Task.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'x' } },
          { type: 'tool_use', id: 'b', name: 'list_dir', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'X' },
          { type: 'tool_result', tool_use_id: 'b', content: 'Error: bad', is_error: true },
          { type: 'text', text: 'Observation noted.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      { name: 'read_file', description: 'Read.', input_schema: { type: 'object' } },
      { name: 'list_dir', description: 'List.', input_schema: { type: 'object' } },
    ]);
  });

  it('without tools sends no tools field (a mode that reads actions from text)', () => {
    const body = toMessagesBody(
      [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'T' },
      ],
      [],
      'conversation',
    );
    expect('tools' in body).toBe(false);
    expect(body.system).toEqual([{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'T', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('marking the last message never changes the history it was built from', () => {
    const kept = [{ type: 'text', text: 'Hi.' }];
    const history = [
      { role: 'user', content: 'T' },
      { role: 'assistant', content: 'Hi.', [ANTHROPIC_CONTENT]: kept },
    ];
    toMessagesBody(history, [], 'conversation');
    expect(kept).toEqual([{ type: 'text', text: 'Hi.' }]);
  });
});
