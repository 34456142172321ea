import assert from 'node:assert/strict';
import { it } from 'node:test';
import { clientErrorFields, errorFields, isClientError } from '../../src/server/log.ts';

void it('server stacks are logged at most ten a minute; the rest say how many were left out', () => {
  const t0 = 1_000_000_000;
  const lines = Array.from({ length: 25 }, (_, i) => errorFields(new Error(`boom ${i}`), t0 + i));
  assert.equal(lines.filter((l) => typeof l['stack'] === 'string').length, 10);
  assert.equal(lines.at(-1)?.['stacks_suppressed_this_minute'], 15);
  assert.ok(
    typeof errorFields(new Error('later'), t0 + 61_000)['stack'] === 'string',
    'a new minute, a new budget',
  );
});

void it("a client's mistake is one short line without a stack", () => {
  for (const err of [
    new SyntaxError('Unexpected token } in JSON'),
    new Error('Parse error: Invalid JSON'),
    new Error('Not Acceptable: Client must accept both application/json and text/event-stream'),
    new Error('Rejected inbound request (header-mismatch): Bad Request'),
  ]) {
    assert.ok(isClientError(err), err.message);
    const fields = clientErrorFields(err);
    assert.equal(fields['stack'], undefined);
    assert.ok(!String(fields['error']).includes('\n'));
  }
  assert.equal(isClientError(new TypeError("Cannot read properties of undefined (reading 'x')")), false);
});
