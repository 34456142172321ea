// The threat table is a registry too: every tool an agent can be served has rows, every row
// names exactly one test by its title, every row's tool exists, and the docs page is the table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { REFUSALS } from '../../src/core/refusals/catalogue.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { renderThreats, THREATS_PAGE } from './docs.ts';
import { testTitles, threatRows, type SourcedRow } from './table.ts';

/** The one tool no agent is ever served: it needs no row (its row, if any, is the attempt). */
const NEVER_SERVED = 'set_mandate';
const TOOLS = buildRegistry()
  .all()
  .map((t) => ({ name: t.spec.name, scope: t.spec.scope }));
const where = (r: SourcedRow) => `${r.file}: "${r.test}"`;

describe('the threat table', () => {
  let rows: SourcedRow[];
  let titles: Map<string, string[]>;
  before(async () => {
    rows = await threatRows();
    titles = testTitles();
  });

  it('every tool an agent can be served has at least one row', () => {
    const covered = new Set(rows.map((r) => r.tool));
    const missing = TOOLS.map((t) => t.name).filter((t) => t !== NEVER_SERVED && !covered.has(t));
    assert.deepEqual(missing, [], 'add a row for each: what could a convinced agent do with it?');
  });

  it("every row's tool is a tool of the registry, or 'transport'", () => {
    const known = new Set([...TOOLS.map((t) => t.name), 'transport']);
    assert.deepEqual(
      rows.filter((r) => !known.has(r.tool)).map((r) => `${where(r)} names the tool "${r.tool}"`),
      [],
    );
  });

  it('every row names exactly one test by its title, titled "threat: <tool>: …"', () => {
    const problems: string[] = [];
    for (const r of rows) {
      const n = titles.get(r.test)?.length ?? 0;
      if (n !== 1) problems.push(`${where(r)} matches ${n} tests`);
      if (!r.test.startsWith(`threat: ${r.tool}: `))
        problems.push(`${where(r)} is not titled "threat: ${r.tool}: …"`);
    }
    assert.deepEqual(problems, []);
    assert.equal(new Set(rows.map((r) => r.test)).size, rows.length, 'a test proves one row');
  });

  it('every row says what it does, and a code it gives is in the refusal catalogue', () => {
    for (const r of rows) {
      assert.ok(r.act.trim().length >= 10, `${where(r)}: say the act in words`);
      assert.ok(['refused', 'decision', 'term'].includes(r.answer), `${where(r)}: answer "${r.answer}"`);
      if (r.code !== undefined) assert.ok(r.code in REFUSALS, `${where(r)}: "${r.code}" is no refusal code`);
    }
  });

  it(`${THREATS_PAGE} is the table as it stands (npm run threats writes it)`, () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', THREATS_PAGE), 'utf8');
    assert.equal(page, renderThreats(rows, TOOLS, titles), `${THREATS_PAGE} is stale: run npm run threats`);
  });
});
