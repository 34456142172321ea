import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memberText, newWrapper } from '../../src/untrusted/index.ts';

const mt = memberText('secret-canary', 'alice');

void test('a template literal of raw member text throws', () => {
  assert.throws(() => `${mt as unknown as string}`, TypeError);
});

void test('String(), + and toString() of raw member text throw', () => {
  assert.throws(() => String(mt), TypeError);
  assert.throws(() => (mt as unknown as string) + '', TypeError);
  assert.throws(() => mt.toString(), TypeError);
});

void test('JSON.stringify of raw member text throws, alone or nested', () => {
  assert.throws(() => JSON.stringify(mt), TypeError);
  assert.throws(() => JSON.stringify({ result: { bio: mt } }), TypeError);
  assert.throws(() => JSON.stringify([mt]), TypeError);
});

void test('the error message never carries the text itself', () => {
  assert.throws(
    () => JSON.stringify(mt),
    (e: unknown) => e instanceof TypeError && !e.message.includes('secret-canary'),
  );
});

void test('raw member text exposes nothing by enumeration or spreading', () => {
  assert.deepEqual(Object.keys(mt), []);
  assert.deepEqual({ ...mt }, {});
  assert.equal(Object.getOwnPropertyNames(mt).length, 0);
});

void test('memberText refuses a missing author, so nothing is ever unattributed', () => {
  assert.throws(() => memberText('text', ''), TypeError);
  assert.throws(() => memberText('text', undefined as unknown as string), TypeError);
  assert.throws(() => memberText(42 as unknown as string, 'alice'), TypeError);
});

void test('the wrapper accepts only real MemberText values', () => {
  const fake = { raw: 'x', author: 'y' } as unknown as typeof mt;
  assert.throws(() => newWrapper().wrap(fake), TypeError);
});

void test('the constructor cannot be reached around memberText() at run time either', () => {
  const Ctor = mt.constructor as new (...args: unknown[]) => unknown;
  assert.throws(() => new Ctor('forged', 'admin'), TypeError);
  assert.throws(() => new Ctor(Symbol('member-text seal'), 'forged', 'admin'), TypeError);
});

void test('a MemberText is frozen', () => {
  assert.ok(Object.isFrozen(mt));
});
