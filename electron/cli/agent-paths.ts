/**
 * An agent column's command as written in a variants or suite file names its script relative to that file
 * (`["python3", "react_agent.py"]` beside `tutorial-agents.json`); the agent runs in its run's workspace copy,
 * so each word that names an existing file there is made absolute here, and so is each of its `paths`.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { VariantInput } from '../../shared/variants.js';

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

export function anchorAgentPaths(variants: readonly VariantInput[], dir: string): VariantInput[] {
  return variants.map((v) => {
    if (!v.agent) return v;
    const command = v.agent.command.map((word, i) => {
      if (path.isAbsolute(word) || word.startsWith('-')) return word;
      // The program itself is looked up on PATH unless it is written as a path (./agent.sh).
      if (i === 0 && !word.includes('/')) return word;
      const full = path.resolve(dir, word);
      return isFile(full) ? full : word;
    });
    // The column's extra read-only paths are the file's too (checked, existence included, when the comparison starts).
    const paths = v.agent.paths?.map((p) => path.resolve(dir, p));
    return { ...v, agent: { ...v.agent, command, ...(paths ? { paths } : {}) } };
  });
}
