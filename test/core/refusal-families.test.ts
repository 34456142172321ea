// Compiled by `tsc --noEmit`: every `@ts-expect-error` below must be an error, so if a refusal
// family ever accepted a code of another family, the typecheck itself fails. Run by the test
// runner as well, where the family types are checked against the catalogue's data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AdminRefusal } from '../../src/admin/errors.ts';
import {
  REFUSALS,
  type AdminRefusalCode,
  type ConsoleRefusalCode,
  type DecisionRefusalCode,
  type HttpRefusalCode,
  type RefusalCode,
  type RefusalCodeOf,
  type RefusalFamily,
  type ToolRefusalCode,
} from '../../src/core/refusals/catalogue.ts';
import { refuse } from '../../src/tools/result.ts';

/** The codes the catalogue's data puts in a family. */
const inFamily = (family: RefusalFamily): RefusalCode[] =>
  (Object.keys(REFUSALS) as RefusalCode[]).filter((c) => REFUSALS[c].families.includes(family));

void test('refuse() of the tools takes a tool code, and no code of another family', () => {
  assert.equal(refuse('claim_without_artifact', 'r', 'n').ok, false);
  // @ts-expect-error an admin-only code is not a tool refusal
  refuse('above_tier', 'r', 'n');
  // @ts-expect-error a console-only code is not a tool refusal
  refuse('stale_form', 'r', 'n');
  // @ts-expect-error an http-only code is not a tool refusal
  refuse('insufficient_scope', 'r', 'n');
  // @ts-expect-error why a request was queued is not a refusal a tool gives
  refuse('counterpart_not_in_mandate', 'r', 'n');
  // @ts-expect-error a code the catalogue does not list at all
  refuse('no_such_code', 'r', 'n');
});

void test('an AdminRefusal takes an admin code; a tool refusal is passed on as it came', () => {
  assert.equal(new AdminRefusal('above_tier', 'r').code, 'above_tier');
  // @ts-expect-error a tool-only code is not an admin refusal
  assert.ok(new AdminRefusal('claim_without_artifact', 'r'));
  // @ts-expect-error a console-only code is not an admin refusal
  assert.ok(new AdminRefusal('link_used', 'r'));
  const passed = AdminRefusal.passOn({ code: 'invalid_arguments', reason: 'r', next: 'n' });
  assert.equal(passed.code, 'invalid_arguments');
  assert.equal(passed.message, 'r');
});

void test('each family type holds exactly the codes the catalogue gives that family', () => {
  // Compile-time: a code of the family is assignable, one outside it is not.
  const tool: ToolRefusalCode = 'invalid_cursor';
  const admin: AdminRefusalCode = 'not_your_decision';
  const consoleCode: ConsoleRefusalCode = 'cross_site_request';
  const decision: DecisionRefusalCode = 'stale_scope_lapsed';
  const http: HttpRefusalCode = 'forbidden_origin';
  const gate: RefusalCodeOf<'gate'> = 'tool_withheld';
  // @ts-expect-error a decision code is not an http code
  const wrong: HttpRefusalCode = 'review_needs_approval';
  // Run time: every sample is listed in the family the type claims.
  const samples: [RefusalFamily, RefusalCode][] = [
    ['tool', tool],
    ['admin', admin],
    ['console', consoleCode],
    ['decision', decision],
    ['http', http],
    ['gate', gate],
  ];
  for (const [family, code] of samples) assert.ok(inFamily(family).includes(code), `${code} in ${family}`);
  assert.ok(!inFamily('http').includes(wrong));
  // A code listed in two families is in both types (not_found: tool, admin, console, http).
  const both: ToolRefusalCode & AdminRefusalCode & HttpRefusalCode = 'not_found';
  assert.ok(['tool', 'admin', 'console', 'http'].every((f) => inFamily(f as RefusalFamily).includes(both)));
});
