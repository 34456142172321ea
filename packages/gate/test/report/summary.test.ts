import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding, ItemReport, Verdict } from '../../src/compat/index.ts';
import type { GateResult } from '../../src/lock/compare.ts';
import { exitCode } from '../../src/report/exit-code.ts';
import { changedItems, orderFindings } from '../../src/lock/order.ts';
import { summarize, summaryLine } from '../../src/report/summary.ts';

const finding = (rule: Finding['rule'], verdict: Finding['verdict']): Finding => ({
  rule,
  verdict,
  pointer: '',
  args: {},
});

function item(
  name: string,
  verdict: Verdict,
  kind: ItemReport['kind'] = 'tool',
  findings: Finding[] = [],
): ItemReport {
  return { kind, name, verdict, change: 'changed', oldHash: null, newHash: null, findings };
}

function result(...servers: [string, ItemReport[]][]): GateResult {
  const order: Verdict[] = ['breaking', 'unknown', 'compatible', 'identical'];
  const worst = (items: ItemReport[]): Verdict =>
    order.find((v) => items.some((i) => i.verdict === v)) ?? 'identical';
  return {
    verdict: worst(servers.flatMap(([, items]) => items)),
    servers: servers.map(([name, items]) => ({
      name,
      comparison: {
        verdict: worst(items),
        items,
        replay: { checked: 0, rejected: [] },
        unpinned: [],
        unread: [],
      },
    })),
  };
}

const many = (n: number, verdict: Verdict, kind: ItemReport['kind'] = 'tool'): ItemReport[] =>
  Array.from({ length: n }, (_, i) => item(`${verdict}${i}`, verdict, kind));

describe('the summary line', () => {
  for (const [name, r, line] of [
    [
      'every verdict, several servers',
      result(
        ['a', [...many(2, 'breaking'), ...many(20, 'identical')]],
        ['b', [...many(1, 'unknown'), ...many(11, 'compatible')]],
        ['c', many(20, 'identical')],
      ),
      '2 breaking, 1 unknown, 11 compatible, 40 identical in 3 servers',
    ],
    [
      'zero counts left out',
      result(['default', [...many(1, 'compatible'), ...many(3, 'identical')]]),
      '1 compatible, 3 identical in 1 server',
    ],
    ['only a break', result(['default', many(1, 'breaking')]), '1 breaking in 1 server'],
    [
      'nothing changed',
      result(['default', many(54, 'identical')]),
      'no change: 54 items identical in 1 server',
    ],
    [
      'one item, unchanged',
      result(['default', many(1, 'identical')]),
      'no change: 1 item identical in 1 server',
    ],
    ['nothing pinned at all', result(['default', []]), 'no change: 0 items identical in 1 server'],
    ['no server', result(), 'no change: 0 items identical in 0 servers'],
  ] as const) {
    it(name, () => assert.equal(summaryLine(summarize(r)), line));
  }

  it('counts items across surfaces and servers, and by kind', () => {
    const s = summarize(
      result(
        ['a', [...many(1, 'breaking'), ...many(2, 'compatible', 'prompt')]],
        ['b', [...many(1, 'unknown', 'skill'), ...many(1, 'identical')]],
      ),
    );
    assert.deepEqual(s, {
      breaking: 1,
      unknown: 1,
      compatible: 2,
      identical: 1,
      servers: 2,
      kinds: {
        tool: { breaking: 1, unknown: 0, compatible: 0, identical: 1 },
        prompt: { breaking: 0, unknown: 0, compatible: 2, identical: 0 },
        skill: { breaking: 0, unknown: 1, compatible: 0, identical: 0 },
      },
    });
  });

  it('a kind named like an object property is counted as a kind, nothing more', () => {
    const s = summarize(result(['a', [item('x', 'breaking', '__proto__' as ItemReport['kind'])]]));
    assert.deepEqual(Object.keys(s.kinds), ['__proto__']);
    assert.equal(Object.getPrototypeOf(s.kinds), Object.prototype);
  });
});

describe('breaking first', () => {
  it('findings: a disagreement, then breaking, unknown, compatible; stable within a verdict', () => {
    const findings = [
      finding('description-changed', 'compatible'),
      finding('property-added-to-open-object', 'compatible'),
      finding('not-added', 'unknown'),
      finding('property-added-required', 'breaking'),
      finding('replay-disagrees', 'unknown'),
      finding('type-narrowed', 'breaking'),
    ];
    assert.deepEqual(
      orderFindings(findings).map((f) => f.rule),
      [
        'replay-disagrees',
        'property-added-required',
        'type-narrowed',
        'not-added',
        'description-changed',
        'property-added-to-open-object',
      ],
    );
  });

  it('items: breaking, unknown, compatible across every server, identical left out, stable', () => {
    const r = result(
      [
        'a',
        [item('c1', 'compatible'), item('i1', 'identical'), item('u1', 'unknown'), item('b1', 'breaking')],
      ],
      ['b', [item('b2', 'breaking'), item('c2', 'compatible', 'prompt')]],
    );
    assert.deepEqual(
      changedItems(r).map((e) => `${e.server}/${e.item.name}`),
      ['a/b1', 'b/b2', 'a/u1', 'a/c1', 'b/c2'],
    );
  });
});

describe('exit codes of a decided run', () => {
  const disagreeing = item('x', 'unknown', 'tool', [finding('sampling-disagrees', 'unknown')]);
  for (const [name, r, allow, code] of [
    ['identical', result(['a', many(2, 'identical')]), false, 0],
    ['compatible', result(['a', many(2, 'compatible')]), false, 0],
    ['breaking', result(['a', many(1, 'breaking')]), false, 1],
    ['unknown', result(['a', many(1, 'unknown')]), false, 2],
    ['unknown, allowed', result(['a', many(1, 'unknown')]), true, 0],
    ['a disagreement, even allowed', result(['a', [disagreeing]]), true, 2],
    ['breaking outranks unknown', result(['a', [...many(1, 'unknown'), ...many(1, 'breaking')]]), true, 1],
    ['breaking outranks a disagreement', result(['a', [disagreeing, ...many(1, 'breaking')]]), false, 1],
  ] as const) {
    it(`${name}: ${code}`, () => assert.equal(exitCode(r, allow), code));
  }
});
