import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildRegistry } from '../../src/tools/index.ts';

/** SPEC.md's catalog: the contract the registry is audited against. */
const SPEC: Record<string, string | null> = {
  club_info: null,
  list_members: null,
  get_profile: null,
  update_profile: 'profile:write',
  file_evidence: 'evidence:write',
  list_evidence: 'evidence:write',
  list_questions: 'inbox',
  answer_question: 'inbox',
  get_mandate: 'mandate:read',
  list_decisions: 'mandate:read',
  ask_agent: 'consult',
  get_consultation: 'consult',
  list_candidates: 'vouch',
  review_candidate: 'vouch',
  set_mandate: 'mandate:write',
};

function testSources(dir: string): string {
  let text = '';
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) text += testSources(p);
    else if (entry.name.endsWith('.test.ts') && !entry.name.startsWith('registry-audit'))
      text += readFileSync(p, 'utf8');
  }
  return text;
}

describe('registry audit', () => {
  const registry = buildRegistry();
  const tests = testSources(join(import.meta.dirname, '..'));

  it('holds exactly the 15 tools of the spec, each with its scope', () => {
    assert.deepEqual(Object.fromEntries(registry.all().map((t) => [t.spec.name, t.spec.scope])), SPEC);
  });

  for (const tool of registry.all()) {
    it(`${tool.spec.name}: title, description, closed input schema, output schema, annotations, a test`, () => {
      const s = tool.spec;
      assert.ok(s.title.length > 3);
      assert.ok(s.description.length >= 80, 'a description a model can act on');
      assert.equal(s.inputSchema['type'], 'object');
      assert.equal(s.inputSchema['additionalProperties'], false, 'undeclared arguments are refused');
      assert.ok(Object.keys(s.outputSchema).length > 0);
      assert.ok(s.annotations && typeof s.annotations.readOnlyHint === 'boolean');
      assert.ok(tests.includes(`'${s.name}'`), `some test calls ${s.name} by name`);
    });
  }
});
