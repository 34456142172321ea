import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { member, setMember } from '../../src/compat/own.ts';
import type { JsonObject } from '../../src/compat/types.ts';

describe('members by a name from a schema', () => {
  const obj = JSON.parse('{"a":1,"__proto__":{"type":"string"}}') as JsonObject;
  const table: [string, unknown][] = [
    ['a', 1],
    ['__proto__', { type: 'string' }],
    ['constructor', undefined],
    ['toString', undefined],
    ['hasOwnProperty', undefined],
    ['missing', undefined],
  ];
  for (const [name, want] of table)
    it(`member(${name}) is ${JSON.stringify(want)}`, () => assert.deepEqual(member(obj, name), want));

  it('setMember makes every name an own member, __proto__ too, and leaves the prototype alone', () => {
    const out: JsonObject = {};
    for (const name of ['__proto__', 'constructor', 'x']) setMember(out, name, name);
    assert.deepEqual(Object.keys(out), ['__proto__', 'constructor', 'x']);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(JSON.stringify(out), '{"__proto__":"__proto__","constructor":"constructor","x":"x"}');
  });
});
