import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ThreatRow } from './row.ts';

/** Where the rows live: one file per part of the work, each exporting `rows`. */
export const ROWS_DIR = join(import.meta.dirname, 'rows');

/** A row with the file it came from, for messages that say where to fix it. */
export interface SourcedRow extends ThreatRow {
  readonly file: string;
}

/**
 * Every row of the threat table: the files of rows/ are read when this runs, so a new file
 * joins the table (and its audit and docs page) with no edit anywhere else. Files in name
 * order, rows in the order each file lists them.
 */
export async function threatRows(): Promise<SourcedRow[]> {
  const files = readdirSync(ROWS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const all: SourcedRow[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(ROWS_DIR, file)).href)) as { rows?: readonly ThreatRow[] };
    if (!Array.isArray(mod.rows)) throw new Error(`test/threats/rows/${file} exports no \`rows\` array`);
    for (const row of mod.rows) all.push({ ...row, file: `test/threats/rows/${file}` });
  }
  return all;
}

const ROOT = join(import.meta.dirname, '..', '..');
/** A test's title as written: `it('…'`, `it("…"`, or a template without `${`, the same for `test(`. */
const TITLE = /\b(?:it|test)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The literal titles of every test in the repository's test files, each with the files that hold it. */
export function testTitles(): Map<string, string[]> {
  const packages = readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(ROOT, 'packages', e.name, 'test')))
    .map((e) => `packages/${e.name}/test`);
  const titles = new Map<string, string[]>();
  for (const file of ['test', ...packages].flatMap(testFiles)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(TITLE)) {
      if (m[1] === '`' && m[2]!.includes('${')) continue;
      const title = m[2]!.replace(/\\(.)/g, '$1');
      titles.set(title, [...(titles.get(title) ?? []), file]);
    }
  }
  return titles;
}
