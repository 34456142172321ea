// The proxy's enforcer on its own, without a server: which tools a page keeps, and each refusal
// it gives, by the code its catalogue documents.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Enforcer, unknownToolError } from '../../src/enforce/enforcer.ts';
import { GATE_REFUSALS } from '../../src/enforce/refusals.ts';
import type { Tool } from '../../src/compat/index.ts';

const OPTIONS = { strictDescriptions: false, strictOpenObjects: false };

const search: Tool = {
  name: 'search',
  description: 'Searches.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false },
};
const fetchTool: Tool = {
  name: 'fetch',
  description: 'Fetches.',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } }, additionalProperties: false },
};
/** search with its argument made required: a breaking change against the lock. */
const searchBroken: Tool = {
  ...search,
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string' }, limit: { type: 'integer' } },
    required: ['limit'],
    additionalProperties: false,
  },
};

function enforcer(locked: Tool[]) {
  const notes: string[] = [];
  return { e: new Enforcer(locked, OPTIONS, (l) => notes.push(l)), notes };
}

describe('enforcer', () => {
  it('every refusal code it gives is in the gate catalogue, documented', () => {
    for (const [code, { doc }] of Object.entries(GATE_REFUSALS)) {
      assert.match(code, /^[a-z]+(?:_[a-z]+)+$/);
      assert.ok(doc.length > 20 && !doc.includes('\n'), code);
    }
  });

  it('tool_not_yet_judged: a locked tool no listing has shown yet is refused (fail closed)', () => {
    const { e } = enforcer([search]);
    const r = e.refusal('search');
    assert.equal(r?.code, 'tool_not_yet_judged');
    assert.match(r!.reason, /has not been listed by the server through the gate/);
    assert.match(r!.next, /tools\/list/);
    assert.ok(r!.code in GATE_REFUSALS);
  });

  it('tool_not_yet_judged: once every page was read, a locked tool still missing is gone', () => {
    const { e } = enforcer([search, fetchTool]);
    assert.deepEqual(
      e.filter([fetchTool]).map((t) => t.name),
      ['fetch'],
    );
    e.listedEverything();
    const r = e.refusal('search');
    assert.equal(r?.code, 'tool_not_yet_judged');
    assert.match(r!.reason, /does not list it any more/);
    assert.equal(e.needsListing('search'), false, 'no listing without end');
    assert.equal(e.refusal('fetch'), undefined, 'a listed, unchanged tool passes');
  });

  it('tool_withheld: a breaking change is left out of the page and refused naming its rule', () => {
    const { e, notes } = enforcer([search]);
    assert.deepEqual(
      e.filter([searchBroken, fetchTool]).map((t) => t.name),
      ['fetch'],
    );
    const r = e.refusal('search');
    assert.equal(r?.code, 'tool_withheld');
    assert.ok(r!.rule, 'the rule that broke it');
    assert.ok(r!.reason.includes(r!.rule!));
    assert.equal(notes.length, 1);
    // Unchanged again: no longer withheld.
    e.filter([search]);
    assert.equal(e.refusal('search'), undefined);
  });

  it('the JSON-RPC answer carries the refusal as data', () => {
    const { e } = enforcer([search]);
    const answer = unknownToolError(7, 'search', e.refusal('search')) as {
      id: number;
      error: { code: number; data: { code: string } };
    };
    assert.equal(answer.id, 7);
    assert.equal(answer.error.code, -32602);
    assert.equal(answer.error.data.code, 'tool_not_yet_judged');
  });
});
