// Every definition present in two consecutive MCP specification revisions, compared as a
// standalone schema (input direction): time per pair and verdicts. Data: test/fixtures/compat/mcp-spec.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Schema } from '../src/compat/index.ts';

const DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'fixtures',
  'compat',
  'mcp-spec',
);
const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

export interface SpecPair {
  name: string;
  old: Schema;
  new: Schema;
}

function doc(revision: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(DIR, `${revision}.json`), 'utf8')) as Record<string, unknown>;
}

/** Each definition shared by consecutive revisions, as a standalone schema pair. */
export function specPairs(): SpecPair[] {
  const out: SpecPair[] = [];
  for (let i = 0; i + 1 < REVISIONS.length; i++) {
    const [a, b] = [doc(REVISIONS[i] as string), doc(REVISIONS[i + 1] as string)];
    const ka = a.definitions ? 'definitions' : '$defs';
    const kb = b.definitions ? 'definitions' : '$defs';
    const da = a[ka] as Record<string, unknown>,
      db = b[kb] as Record<string, unknown>;
    for (const name of Object.keys(da)
      .filter((n) => n in db)
      .sort()) {
      out.push({
        name: `${name} ${REVISIONS[i]}→${REVISIONS[i + 1]}`,
        old: { $schema: a.$schema as string, [ka]: da as never, $ref: `#/${ka}/${name}` },
        new: { $schema: b.$schema as string, [kb]: db as never, $ref: `#/${kb}/${name}` },
      });
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Loaded here, not at the top: the benchmark's whole-process runs of other engines read these
  // pairs without loading the gate.
  const { compareSchemas } = await import('../src/compat/index.ts');
  const skip = new Set((process.env.SKIP ?? '').split(',').filter(Boolean));
  const only = process.env.ONLY;
  const rows: { name: string; ms: number; verdict: string }[] = [];
  for (const p of specPairs()) {
    if (skip.has(p.name) || (only && !p.name.includes(only))) continue;
    const t = performance.now();
    const r = compareSchemas(p.old, p.new, 'input');
    rows.push({ name: p.name, ms: performance.now() - t, verdict: r.verdict });
  }
  rows.sort((x, y) => y.ms - x.ms);
  const count = (v: string): number => rows.filter((r) => r.verdict === v).length;
  console.log(
    `pairs ${rows.length}; unknown ${count('unknown')}, breaking ${count('breaking')}, compatible ${count('compatible')}, identical ${count('identical')}`,
  );
  for (const r of rows.slice(0, 8))
    console.log(`${r.ms.toFixed(1).padStart(9)} ms  ${r.verdict.padEnd(10)} ${r.name}`);
  if (process.env.VERBOSE) for (const r of rows) console.log(`${r.verdict} ${r.name}`);
}
