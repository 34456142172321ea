import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RULES } from '../../src/compat/index.ts';
import { FIXTURES, readJson } from './helpers.ts';
import { REFERENCE_PAGE, referenceNow } from './rules-doc.ts';
import { SURFACE_CASES } from './surface-cases.ts';

/** Rules shown by a named test rather than a schema fixture pair, and why. */
const COVERED_ELSEWHERE: Record<string, string> = {
  'tool-removed': 'manifests.test.ts: reports a removed tool',
  'tool-added': 'manifests.test.ts: reports an added tool',
  'tool-description-changed': 'manifests.test.ts: description-only change',
  'tool-title-changed': 'manifests.test.ts: drift outside the hashed fields',
  'tool-annotations-changed': 'manifests.test.ts: drift outside the hashed fields',
  'tool-field-changed': 'manifests.test.ts: drift outside the hashed fields',
  'output-schema-added': 'manifests.test.ts: output that narrows',
  'tool-not-conformant': 'conformance.test.ts: names each problem at its own pointer',
  'argument-removed': 'arguments.test.ts: a declared argument gone from an open object',
  'all-arguments-removed': 'arguments.test.ts: every declared argument gone (a zod 4 empty schema)',
  'replay-rejected-call': 'manifests.test.ts: replay as the second signal',
  'replay-disagrees': 'manifests.test.ts: a rejection the rules did not predict',
  'sampling-disagrees': 'manifests.test.ts: sampling as the cross-check',
  'effect-read-only-dropped': 'effects.test.ts: widenings are breaking',
  'effect-became-destructive': 'effects.test.ts: widenings are breaking',
  'effect-no-longer-idempotent': 'effects.test.ts: widenings are breaking',
  'effect-opened-world': 'effects.test.ts: widenings are breaking',
  'effect-became-read-only': 'effects.test.ts: narrowings are compatible',
  'effect-no-longer-destructive': 'effects.test.ts: narrowings are compatible',
  'effect-became-idempotent': 'effects.test.ts: narrowings are compatible',
  'effect-closed-world': 'effects.test.ts: narrowings are compatible',
  'property-names-changed':
    'waiver: only when a propertyNames schema cannot be compiled on its own; the comparison then says unknown',
  'extension-keyword-changed':
    'retired: an x- keyword is an annotation to the validator, and its change is annotation-changed (fixture annotation-changed--extension-keyword); the id stays reserved',
  'pattern-properties-changed':
    'retired: patternProperties regexes are decided one by one (pattern-property-* rules); the id stays reserved',
  'budget-exhausted': 'inclusion.test.ts: a work budget ends in unknown with a finding that says so',
  'recursion-too-deep':
    "waiver: a guard on the walk's own depth (600 steps), beyond the depth bound of schemas (256 levels) that is checked first; only a walk through references can reach it",
  'schema-too-deep': 'hostile.test.ts: a schema nested 10,000 deep is unknown with schema-too-deep',
  'schema-too-large':
    'hostile.test.ts: a schema of more values than the bound is unknown with schema-too-large',
  'schema-too-many-refs':
    'hostile.test.ts: a schema of more $ref targets than the bound is unknown with schema-too-many-refs',
  'schema-unprocessable':
    'hostile.test.ts: a oneOf too long for the validator to run is unknown with schema-unprocessable',
  'tool-unprocessable':
    'hostile.test.ts: a tool that cannot be judged at all is unknown with tool-unprocessable',
  'surface-unprocessable':
    'surfaces.test.ts: an item that cannot be judged is unknown with one line, and the rest are still judged',
  'server-added': 'configs.test.ts: a server gone from the configuration is one server-removed finding',
  'server-removed': 'configs.test.ts: a server gone from the configuration is one server-removed finding',
  'launch-changed': 'launch.test.ts: another package, command, argument or URL is a different launch',
  'launch-package-version-changed': 'launch.test.ts: a new exact version of the same package is compatible',
  'launch-unpinned': 'launch.test.ts: an unpinned package is unknown even when nothing changed',
  'launch-failed': 'configs.test.ts: a server that exits at start gives its cause',
  ...Object.fromEntries(
    SURFACE_CASES.flatMap((c) => c.rules.map((rule) => [rule, `surfaces.test.ts: ${c.name}`])),
  ),
};

describe('the rule table', () => {
  it('has stable kebab-case ids, a message and a verdict per direction for every rule', () => {
    const ids = new Set<string>();
    for (const r of RULES) {
      assert.match(r.id, /^[a-z]+(-[a-z0-9]+)*$/);
      assert.ok(!ids.has(r.id), `duplicate ${r.id}`);
      ids.add(r.id);
      assert.ok(r.message.length > 0);
      for (const v of [r.input, r.output])
        assert.ok(['breaking', 'compatible', 'assumed', 'unknown'].includes(v));
    }
  });

  it('pairs narrowing with widening: a rule breaking for inputs is not breaking for outputs, and back', () => {
    const bothWays = new Set([
      'type-changed',
      'const-changed',
      'format-changed',
      'tool-removed',
      'effect-read-only-dropped',
      'effect-became-destructive',
      'effect-no-longer-idempotent',
      'effect-opened-world',
      'sampled-break',
      'pattern-rejects-value',
      'replay-rejected-call',
    ]);
    // Rules about what a server serves besides schemas (prompts, skills…) have no direction.
    const surface = /^(?:prompt|resource|skill|server|instructions|text|surface)-/;
    for (const r of RULES) {
      if (bothWays.has(r.id) || surface.test(r.id)) continue;
      assert.ok(!(r.input === 'breaking' && r.output === 'breaking'), `${r.id} breaking both ways`);
    }
  });

  it('every rule has a fixture pair, or a named test, or a written waiver', () => {
    const seen = new Set<string>();
    const dir = path.join(FIXTURES, 'rules');
    for (const name of fs.readdirSync(dir)) {
      for (const f of readJson<{ findings: { rule: string }[] }>(path.join(dir, name, 'expected.json'))
        .findings)
        seen.add(f.rule);
    }
    const missing = RULES.map((r) => r.id).filter((id) => !seen.has(id) && !(id in COVERED_ELSEWHERE));
    assert.deepEqual(missing, []);
  });

  it('the reference lists every rule id, in tables that are the rule table as generated', () => {
    const { written, generated } = referenceNow(RULES);
    const missing = RULES.map((r) => r.id).filter((id) => !written.includes(`| \`${id}\``));
    assert.deepEqual(missing, []);
    assert.ok(generated === written, `${path.basename(REFERENCE_PAGE)} is stale: run npm run docs:rules`);
  });
});
