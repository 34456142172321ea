import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ctx } from '../../src/compat/engine/context.ts';
import {
  getRule,
  renderMessage,
  RULES,
  ruleVerdict,
  type Finding,
  type RuleId,
} from '../../src/compat/index.ts';
import { otherFields } from '../../src/compat/surfaces/fields.ts';
import type { KeyedSpec } from '../../src/compat/surfaces/report.ts';
import { textChange } from '../../src/compat/surfaces/text.ts';

// A rule id is a type, checked wherever a finding is made: a misspelt id does not compile. Each
// `@ts-expect-error` below is a misspelling at one kind of place a finding is made; tsc (npm run
// check) fails if any of them compiles, so the type cannot quietly widen back to string.

/** Never called: each line only has to type-check, or fail to where it says so. */
function misspelt(ctx: Ctx): unknown[] {
  const spec: KeyedSpec<never> = {
    kind: 'prompt',
    // @ts-expect-error a keyed surface's rules for an item added and removed
    added: 'prompt-add',
    removed: 'prompt-removed',
    compare: () => [],
  };
  return [
    spec,
    // @ts-expect-error a rule id the table does not hold
    ctx.emit('type-narowed', [], {}),
    // @ts-expect-error ctx.id picks between two of the table's ids
    ctx.id('type-narrowed', 'type-widend'),
    // @ts-expect-error a finding written out as an object
    { rule: 'tool-remove', verdict: 'breaking', pointer: '', args: {} } satisfies Finding,
    // @ts-expect-error the verdict of a rule is read by its id
    ruleVerdict('tool-remove', 'input', false),
    // @ts-expect-error so is the rule itself
    getRule('tool-remove'),
    // @ts-expect-error and its message
    renderMessage({ rule: 'tool-remove', args: {} }),
    // @ts-expect-error a surface's text change
    textChange('description-chnaged', '/description', 'a', 'b', false),
    // @ts-expect-error a surface's other fields
    otherFields({}, {}, new Set(), 'tool-field-chnaged'),
  ];
}

describe('rule ids', () => {
  it('are the table’s ids, each once, in kebab-case', () => {
    const ids: RuleId[] = RULES.map((r) => r.id as RuleId);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.equal(typeof misspelt, 'function');
  });

  it('a correctly spelt id reads its rule', () => {
    const finding: Finding = { rule: 'tool-removed', verdict: 'breaking', pointer: '', args: {} };
    assert.equal(getRule(finding.rule).id, 'tool-removed');
    assert.equal(ruleVerdict(finding.rule, 'input', false), 'breaking');
    assert.equal(renderMessage(finding), getRule('tool-removed').message);
  });
});
