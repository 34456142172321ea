// One pair of tools/list files with a break, an unknown and a compatible change: every format's
// test renders the same diff of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';

const base = {
  name: 'search',
  description: 'Search',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string' }, limit: { type: 'number' } },
    required: ['q'],
  },
};
export const v1 = { tools: [base, { name: 'greet', inputSchema: { type: 'object' } }] };
export const v2 = {
  tools: [
    {
      ...base,
      inputSchema: { ...base.inputSchema, properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
    },
    { name: 'greet', inputSchema: { type: 'object', beta: true } },
    { name: 'added <&> "tool"', inputSchema: { type: 'object' } },
  ],
};

/** `warden-gate diff a.json b.json --format FORMAT` of the pair, in-process. */
export function diff(format: string, ...more: string[]): Promise<{ code: number; out: string }> {
  return diffOf(v1, v2, '--format', format, ...more);
}

/** `warden-gate diff a.json b.json ...MORE` of two tools/list results, in-process. */
export async function diffOf(
  before: unknown,
  after: unknown,
  ...more: string[]
): Promise<{ code: number; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-formats-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(before));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(after));
    const io = bufferIo();
    const code = await main(['diff', path.join(dir, 'a.json'), path.join(dir, 'b.json'), ...more], io);
    return { code, out: io.out.join('') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
