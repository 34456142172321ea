import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareManifests, compareSchemas, parseCalls, type Tool } from '../../src/compat/index.ts';
import { applyReplay, type ToolReport } from '../../src/compat/manifests.ts';
import { crossCheckBySampling } from '../../src/compat/schemas.ts';

const base: Tool = {
  name: 'lookup',
  title: 'Look up a member',
  description: 'Find a member by handle',
  inputSchema: { type: 'object', properties: { handle: { type: 'string' } }, required: ['handle'] },
  outputSchema: { type: 'object', properties: { found: { type: 'boolean' } }, required: ['found'] },
  annotations: { readOnlyHint: true },
};

function one(before: Tool[], after: Tool[], options = {}) {
  const r = compareManifests(before, after, options);
  return { r, tool: r.tools.find((t) => t.verdict !== 'identical') };
}

describe('compareManifests', () => {
  it('reports a removed tool as breaking, with arguments that used to be valid', () => {
    const { r, tool } = one([base], []);
    assert.equal(r.verdict, 'breaking');
    assert.equal(tool?.findings[0]?.rule, 'tool-removed');
    assert.deepEqual(tool?.findings[0]?.witness, { handle: '' });
  });

  it('reports an added tool as compatible', () => {
    const { r, tool } = one([], [base]);
    assert.equal(r.verdict, 'compatible');
    assert.equal(tool?.findings[0]?.rule, 'tool-added');
  });

  it('reports a description-only change as compatible with its word diff', () => {
    const { r, tool } = one(
      [base],
      [{ ...base, description: 'Find a member by handle and email their address out' }],
    );
    assert.equal(r.verdict, 'compatible');
    assert.equal(tool?.findings[0]?.rule, 'tool-description-changed');
    assert.equal(tool?.findings[0]?.args.diff, 'Find a member by handle{+ and email their address out+}');
  });

  it('fails a description change under strictDescriptions', () => {
    const { r } = one([base], [{ ...base, description: 'Changed' }], { strictDescriptions: true });
    assert.equal(r.verdict, 'breaking');
  });

  it('sees drift outside the hashed fields: title, annotations, other fields', () => {
    const { tool } = one(
      [base],
      [{ ...base, title: 'Find', annotations: { readOnlyHint: true, title: 'Find a member' }, icons: [] }],
    );
    assert.deepEqual(tool?.findings.map((f) => f.rule).sort(), [
      'tool-annotations-changed',
      'tool-field-changed',
      'tool-title-changed',
    ]);
    assert.equal(tool?.verdict, 'compatible');
  });

  it('reverses the direction for outputSchema: a result that may now lack a field breaks callers', () => {
    const after = { ...base, outputSchema: { type: 'object', properties: { found: { type: 'boolean' } } } };
    const { tool } = one([base], [after]);
    const f = tool?.findings.find((x) => x.rule === 'property-became-optional');
    assert.equal(f?.verdict, 'breaking');
    assert.equal(
      f?.pointer,
      '/outputSchema' /* the new schema has no "required": the pointer names the schema that lost it */,
    );
    assert.deepEqual(f?.witness, {});
    // The same change to an inputSchema is compatible.
    const input = one(
      [base],
      [{ ...base, inputSchema: { type: 'object', properties: { handle: { type: 'string' } } } }],
    );
    assert.equal(input.tool?.verdict, 'compatible');
  });

  it('treats an output that narrows as compatible, and a removed outputSchema as breaking', () => {
    const narrower = {
      ...base,
      outputSchema: { ...(base.outputSchema as object), additionalProperties: false },
    };
    assert.equal(one([base], [narrower]).tool?.verdict, 'compatible');
    const { outputSchema: _gone, ...withoutOutput } = base;
    assert.equal(one([base], [withoutOutput as Tool]).tool?.verdict, 'breaking');
    assert.equal(one([withoutOutput as Tool], [base]).tool?.findings[0]?.rule, 'output-schema-added');
  });
});

describe('schemas that are not schemas', () => {
  it('a string, number, null or array where a schema belongs is unknown, never compatible', () => {
    for (const bad of ['object', 3, null, [{ type: 'string' }]]) {
      const r = compareSchemas({ type: 'object' }, bad as never, 'input');
      assert.equal(r.verdict, 'unknown');
      assert.equal(r.findings[0]?.rule, 'schema-invalid');
    }
  });
});

describe('replay as the second signal', () => {
  const open: Tool = {
    name: 'note',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  };
  const declared: Tool = {
    name: 'note',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, pin: { type: 'boolean' } } },
  };

  it('a recorded call that used an undeclared key now declared differently makes the change breaking', () => {
    const calls = parseCalls(
      '{"tool":"note","arguments":{"text":"a","pin":"yes"}}\n{"tool":"note","arguments":{"text":"b"}}\n',
    );
    const r = compareManifests([open], [declared], { calls });
    assert.equal(r.verdict, 'breaking');
    assert.deepEqual(r.replay, {
      checked: 2,
      rejected: [{ line: 1, tool: 'note', error: '/pin must be boolean' }],
    });
    const f = r.tools[0]?.findings.find((x) => x.rule === 'replay-rejected-call');
    assert.deepEqual(f?.witness, { text: 'a', pin: 'yes' });
    assert.ok(
      !r.tools[0]?.findings.some((x) => x.rule === 'replay-disagrees'),
      'explained by the open-objects assumption',
    );
  });

  it('without such calls the same change is compatible', () => {
    const r = compareManifests([open], [declared], {
      calls: parseCalls('{"tool":"note","arguments":{"text":"b"}}'),
    });
    assert.equal(r.verdict, 'compatible');
    assert.equal(r.replay.rejected.length, 0);
  });

  it('calls that were already invalid are no evidence', () => {
    const r = compareManifests([open], [declared], {
      calls: parseCalls('{"tool":"note","arguments":{"text":1}}'),
    });
    assert.equal(r.replay.rejected.length, 0);
  });

  it('a rejection the rules did not predict is a disagreement and fails closed', () => {
    const report: ToolReport = {
      name: 'note',
      verdict: 'compatible',
      change: 'changed',
      oldHash: 'a',
      newHash: 'b',
      findings: [],
    };
    const strictNew: Tool = {
      name: 'note',
      inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 1 } } },
    };
    applyReplay([report], new Map([['note', open]]), new Map([['note', strictNew]]), {
      calls: parseCalls('{"tool":"note","arguments":{"text":"long"}}'),
    });
    assert.deepEqual(
      report.findings.map((f) => f.rule),
      ['replay-rejected-call', 'replay-disagrees'],
    );
    assert.equal(report.verdict, 'unknown');
  });
});

describe('sampling as the cross-check of a compatible verdict', () => {
  it('a static verdict of compatible contradicted by a sample becomes a disagreement', () => {
    const before = { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'] };
    const after = { type: 'object', properties: { n: { type: 'integer', minimum: 5 } }, required: ['n'] };
    // Pretend the rules had said "compatible" (no findings): the samples must catch it.
    const checked = crossCheckBySampling([], before, after, '2020-12', 'input');
    assert.equal(checked[0]?.rule, 'sampling-disagrees');
    assert.equal(checked[0]?.verdict, 'unknown');
  });

  it('leaves a truly compatible verdict alone', () => {
    const before = { type: 'object', properties: { n: { type: 'integer', minimum: 5 } } };
    const after = { type: 'object', properties: { n: { type: 'number', minimum: 0 } } };
    assert.deepEqual(crossCheckBySampling([], before, after, '2020-12', 'input'), []);
  });
});
