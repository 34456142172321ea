import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { levelOf, type Finding, type ItemReport, type RuleId } from '../../src/compat/index.ts';
import type { GateResult } from '../../src/lock/compare.ts';
import { applyPolicy, expiredLine } from '../../src/policy/apply.ts';
import { NO_CONFIG, type GateConfig } from '../../src/policy/config.ts';
import { exitCode } from '../../src/report/exit-code.ts';

const f = (rule: RuleId, verdict: Finding['verdict']): Finding => ({ rule, verdict, pointer: '', args: {} });

function tool(name: string, findings: Finding[]): ItemReport {
  const order = ['breaking', 'unknown', 'compatible'] as const;
  const verdict = order.find((v) => findings.some((x) => x.verdict === v)) ?? 'identical';
  return { kind: 'tool', name, verdict, change: 'changed', oldHash: null, newHash: null, findings };
}

function result(items: ItemReport[], server = 'fs'): GateResult {
  const order = ['breaking', 'unknown', 'compatible'] as const;
  const verdict = order.find((v) => items.some((i) => i.verdict === v)) ?? 'identical';
  const comparison = {
    verdict: verdict as ItemReport['verdict'],
    items,
    replay: { checked: 0, rejected: [] },
    unpinned: [],
    unread: [],
  };
  return { verdict, servers: [{ name: server, comparison }] };
}

const config = (c: Partial<GateConfig>): GateConfig => ({ ...NO_CONFIG, ...c });
const levels = (r: GateResult): string[] =>
  r.servers.flatMap((s) =>
    s.comparison.items.flatMap((i) => i.findings.map((x) => `${i.name} ${x.rule} ${levelOf(x)}`)),
  );

const zod4 = result([
  tool('browse', [f('property-required-with-default', 'breaking')]),
  tool('search', [f('argument-removed', 'compatible'), f('tool-description-changed', 'compatible')]),
]);
const DAY = '2026-12-07';

describe('levels applied to a decided result (policy/apply.ts)', () => {
  it('by default: breaking and unknown error, compatible info, a rule’s own level kept', () => {
    const { result: r } = applyPolicy(zod4, NO_CONFIG, DAY);
    assert.deepEqual(levels(r), [
      'browse property-required-with-default error',
      'search argument-removed warning',
      'search tool-description-changed info',
    ]);
    assert.equal(exitCode(r, false), 1);
  });

  it('a rule lowered to warning is shown and passes; off drops the finding, and the item with it', () => {
    const { result: r } = applyPolicy(
      zod4,
      config({
        rules: {
          'property-required-with-default': 'warning',
          'argument-removed': 'off',
          'tool-description-changed': 'off',
        },
      }),
      DAY,
    );
    assert.deepEqual(levels(r), ['browse property-required-with-default warning']);
    assert.equal(r.servers[0]?.comparison.items.length, 1);
    assert.equal(r.verdict, 'breaking', 'a verdict says what changed; the level what to do about it');
    assert.equal(exitCode(r, false), 0);
    assert.equal(exitCode(r, false, 'warning'), 1);
    const off = applyPolicy(zod4, config({ rules: { 'property-required-with-default': 'off' } }), DAY).result;
    assert.equal(off.verdict, 'compatible', 'what is left is judged alone');
  });

  it('--fail-on: a warning fails with 1, an info with 1 under info; an unknown at error still 2', () => {
    const warn = applyPolicy(
      result([tool('search', [f('argument-removed', 'compatible')])]),
      NO_CONFIG,
      DAY,
    ).result;
    assert.deepEqual(
      [exitCode(warn, false), exitCode(warn, false, 'warning'), exitCode(warn, false, 'info')],
      [0, 1, 1],
    );
    const info = applyPolicy(
      result([tool('t', [f('tool-title-changed', 'compatible')])]),
      NO_CONFIG,
      DAY,
    ).result;
    assert.deepEqual([exitCode(info, false, 'warning'), exitCode(info, false, 'info')], [0, 1]);
    const both = applyPolicy(
      result([
        tool('a', [f('all-arguments-removed', 'unknown')]),
        tool('b', [f('argument-removed', 'compatible')]),
      ]),
      NO_CONFIG,
      DAY,
    ).result;
    assert.deepEqual(
      [exitCode(both, false), exitCode(both, false, 'warning'), exitCode(both, true, 'warning')],
      [2, 2, 1],
    );
  });

  it('an exception lowers its server’s tool’s rule to info and says why, through its last day', () => {
    const x = {
      server: 'fs',
      tool: 'browse',
      rule: 'property-required-with-default',
      reason: 'zod 4 artifact',
      expires: DAY,
    };
    const { result: r, expired } = applyPolicy(zod4, config({ exceptions: [x] }), DAY);
    assert.deepEqual(expired, []);
    const found = r.servers[0]?.comparison.items[0]?.findings[0];
    assert.equal(found && levelOf(found), 'info');
    assert.deepEqual(found?.exception, { reason: 'zod 4 artifact', expires: DAY });
    assert.equal(exitCode(r, false), 0);
    for (const other of [
      { ...x, server: 'memory' },
      { ...x, tool: 'search' },
      { ...x, rule: 'tool-removed' },
    ]) {
      const kept = applyPolicy(zod4, config({ exceptions: [other] }), DAY).result;
      assert.equal(exitCode(kept, false), 1, JSON.stringify(other));
    }
  });

  it('an exception past its date no longer applies and is named, with its reason', () => {
    const x = {
      tool: 'browse',
      rule: 'property-required-with-default',
      reason: 'zod 4 artifact',
      expires: '2026-12-06',
    };
    const { result: r, expired } = applyPolicy(zod4, config({ exceptions: [x] }), DAY);
    assert.deepEqual(expired, [x]);
    assert.equal(exitCode(r, false), 1);
    assert.equal(
      expiredLine(x, 'warden-gate.config.json'),
      'exception expired on 2026-12-06 (tool browse, rule property-required-with-default) in warden-gate.config.json: "zod 4 artifact"; renew its date or remove it',
    );
  });

  it('a disagreement of the gate’s own signals stays at error, whatever is configured', () => {
    const r = result([tool('t', [f('type-narrowed', 'breaking'), f('sampling-disagrees', 'unknown')])]);
    const { result: applied } = applyPolicy(r, config({ rules: { 'type-narrowed': 'off' } }), DAY);
    assert.deepEqual(levels(applied), ['t sampling-disagrees error']);
    assert.equal(exitCode(applied, true), 2);
  });
});
