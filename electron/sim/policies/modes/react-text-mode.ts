/**
 * ReAct (text) on the simulated model: no tools parameter, and a system prompt that teaches the Thought /
 * Action / Action Input format. The request is read in native form, so ReAct's policies decide, and the reply
 * is written back as text (react-text.ts).
 */
import { isTextReActPrompt, nativeForm, writeTextReply } from '../react-text.js';
import { defineSimMode } from '../sim-mode.js';

export const reactTextSim = defineSimMode({
  id: 'react-text',
  detect: (s) => s.toolNames.size === 0 && isTextReActPrompt(s.systemPrompt ?? ''),
  family: 'react',
  text: { nativeForm, writeReply: writeTextReply },
});
