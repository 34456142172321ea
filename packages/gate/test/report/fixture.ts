// One release of a server, by hand, as the reports are tested on it: a breaking tool change
// (with a reworded description), a renamed tool, a compatible prompt change, an unknown skill
// change, and a recording two of whose calls the new release rejects.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';

const search = {
  name: 'search',
  description: 'Search files',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string' }, limit: { type: 'number' } },
    required: ['q'],
  },
};
const read = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const skill = (tools: string) => ({
  uri: 'skill://docs/SKILL.md',
  frontmatter: { name: 'docs', 'allowed-tools': tools },
  resources: 'dynamic',
});

export const V1 = {
  server: { name: 'demo', version: '1.0.0' },
  instructions: 'Use search before reading.',
  tools: [search, read, { name: 'greet', inputSchema: { type: 'object' } }],
  prompts: [{ name: 'summarize', arguments: [{ name: 'text', required: true }] }],
  resources: [],
  resourceTemplates: [],
  skills: [skill('Read')],
};

export const V2 = {
  ...V1,
  tools: [
    {
      ...search,
      description: 'Search `files` | fast',
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string' }, limit: { type: 'integer' }, path: { type: 'string' } },
        required: ['q', 'path'],
      },
    },
    { ...read, name: 'read_text_file' },
    V1.tools[2],
  ],
  prompts: [{ name: 'summarize', arguments: [{ name: 'text', required: true }, { name: 'style' }] }],
  skills: [skill('Read Bash')],
};

export const CALLS =
  '{"tool":"search","arguments":{"q":"readme","path":"/"}}\n' +
  '{"tool":"search","arguments":{"q":"readme","limit":10}}\n' +
  `{"tool":"search","arguments":{"q":"${'long '.repeat(80)}","limit":2.5}}\n`;

/** A folder with the lock pinned from V1, V2 and the recording; the tests run inside it. */
export function workspace(): { dir: string; done: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden reports '));
  fs.writeFileSync(path.join(dir, 'v1.json'), JSON.stringify(V1));
  fs.writeFileSync(path.join(dir, 'v2.json'), JSON.stringify(V2));
  fs.writeFileSync(path.join(dir, 'calls.jsonl'), CALLS);
  const cwd = process.cwd();
  process.chdir(dir);
  return {
    dir,
    done: () => {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the gate in process, under its own name or a host's. */
export async function gate(argv: string[], program?: string) {
  const io = bufferIo();
  const code = await main(argv, io, program ? { program, commands: {} } : undefined);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

/** The line of a key in a lock written with two-space indents: each key sought inside its parent. */
export function lineOfKey(file: string, keys: string[]): number {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  let from = 0;
  keys.forEach((key, depth) => {
    const head = `${' '.repeat(2 * (depth + 1))}${JSON.stringify(key)}: `;
    from = lines.findIndex((l, i) => i >= from && l.startsWith(head));
    if (from < 0) throw new Error(`no ${keys.join(' / ')}`);
  });
  return from + 1;
}
