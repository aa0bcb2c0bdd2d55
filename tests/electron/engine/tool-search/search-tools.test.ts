import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { searchTools, splitWords, stem } from '../../../../electron/engine/tool-search/search-tools.js';
import { ALL_TOOLS } from '../../../../electron/engine/tools/index.js';
import { defineTool, signatureOf } from '../../../../electron/engine/tools/tool.js';

const names = (query: string, tools = ALL_TOOLS): string[] => searchTools(query, tools).map((h) => h.name);

describe('searchTools ranking over every tool', () => {
  it('finds the tool a plain-English request means, first', () => {
    expect(names('download web page')[0]).toBe('fetch_url');
    expect(names('what time is it')[0]).toBe('current_time');
    expect(names('read a text file')[0]).toBe('read_file');
    expect(names('current time in a timezone')[0]).toBe('current_time');
    expect(names('weather temperature for a city')[0]).toBe('get_weather');
    expect(names('evaluate a math expression')[0]).toBe('calculator');
    expect(names('run a shell command')[0]).toBe('run_shell');
  });

  it('ranks by BM25: scores fall from first to last and the wrong tools score lower', () => {
    const hits = searchTools('read a text file', ALL_TOOLS);
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    expect(hits[0].score).toBeGreaterThan(2 * hits[1].score);
    expect(hits[0].signature).toBe(signatureOf(ALL_TOOLS.find((t) => t.name === 'read_file')!, true));
  });

  it('puts an exact name first, however it is written', () => {
    for (const query of ['write_file', 'writeFile', 'write file', 'WRITE_FILE']) {
      const hits = searchTools(query, ALL_TOOLS);
      expect(hits[0].name).toBe('write_file');
      if (hits.length > 1) expect(hits[0].score).toBeGreaterThan(hits[1].score);
    }
  });

  it('an exact name beats a tool whose description repeats the words', () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Returns its text.',
      args: z.object({ text: z.string() }),
      returns: 'string',
      run: async ({ text }) => text,
    });
    const noisy = defineTool({
      name: 'shout',
      description: 'Echo echo echo: an echo of an echo, louder than echo.',
      args: z.object({ text: z.string() }),
      returns: 'string',
      run: async ({ text }) => text.toUpperCase(),
    });
    const tools = [noisy, echo];
    expect(names('shout', tools)[0]).toBe('shout');
    const plain = searchTools('echo', tools);
    expect(plain.map((h) => h.name)).toEqual(['echo', 'shout']);
  });

  it('returns [] when nothing matches, and for stop words only', () => {
    expect(searchTools('xyzzy plugh', ALL_TOOLS)).toEqual([]);
    expect(searchTools('what is the', ALL_TOOLS)).toEqual([]);
  });

  it('a blank query lists the tools in order; the limit caps the hits', () => {
    expect(names('  ')).toEqual(ALL_TOOLS.slice(0, 5).map((t) => t.name));
    expect(searchTools('file', ALL_TOOLS, 2)).toHaveLength(2);
    expect(searchTools('file', ALL_TOOLS, 0)).toEqual([]);
  });

  it('only searches the tools it is given', () => {
    const hidden = ALL_TOOLS.filter((t) => !['list_dir', 'read_file', 'write_file', 'run_shell'].includes(t.name));
    expect(names('read a text file', hidden)).not.toContain('read_file');
    expect(names('download web page', hidden)[0]).toBe('fetch_url');
  });
});

describe('tokenizing', () => {
  it('splits snake_case and camelCase names into words', () => {
    expect(splitWords('fetch_url')).toEqual(['fetch', 'url']);
    expect(splitWords('currentTime')).toEqual(['current', 'Time']);
    expect(splitWords('parseHTTPResponse v2')).toEqual(['parse', 'HTTP', 'Response', 'v2']);
  });

  it('stems plurals and -ing so inflected queries still meet the documents', () => {
    expect(stem('pages')).toBe('page');
    expect(stem('files')).toBe('file');
    expect(stem('cities')).toBe('city');
    expect(stem('downloading')).toBe('download');
    expect(stem('running')).toBe('run');
    expect(stem('class')).toBe('class');
    expect(names('downloading pages')[0]).toBe('fetch_url');
  });
});
