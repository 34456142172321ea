import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { specPairs } from '../../bench/compat-spec.ts';
import { seedCorpus } from '../../fuzz/corpus.ts';
import { mutatePair } from '../../fuzz/mutate.ts';
import { mixSeed, Rng } from '../../fuzz/prng.ts';
import type { Ctx } from '../../src/compat/engine/context.ts';
import { startWalk } from '../../src/compat/engine/includes.ts';
import { definitionIds, sameDefinition, SharedDecisions } from '../../src/compat/engine/shared-decisions.ts';
import { compareManifests } from '../../src/compat/manifests.ts';
import { compareSchemas, type JudgeOptions } from '../../src/compat/schemas.ts';
import type { Direction, JsonObject, Schema, SchemaComparison } from '../../src/compat/types.ts';
import type { Dialect } from '../../src/compat/validator.ts';

// The tools of a manifest share decided pairs of definitions (see shared-decisions.ts). Sharing
// must change no verdict: every tool judged beside the others gets the verdict it gets alone,
// with its failures at the same places. Only across recursive definitions may the detail
// differ: a pair decided whole in one tool is met inside a loop in another, where alone it
// would have been assumed (co-induction); its findings are then the whole decision's, and a
// witness may take the longer way round the loop.

/** What must not change: the verdict, and each failure (breaking or unknown) by rule and place. */
function failures(r: {
  verdict: string;
  findings: readonly { rule: string; verdict: string; pointer: string }[];
}) {
  const places = r.findings
    .filter((f) => f.verdict !== 'compatible')
    .map((f) => `${f.verdict} ${f.rule} ${f.pointer}`);
  return { verdict: r.verdict, failures: [...new Set(places)].sort() };
}

function ctxOf(sub: Schema, sup: Schema, subDialect: Dialect = '2020-12', supDialect = subDialect): Ctx {
  return startWalk({
    direction: 'input',
    strict: false,
    sub: { root: sub, dialect: subDialect },
    sup: { root: sup, dialect: supDialect },
  });
}

const doc = (defs: JsonObject, body: JsonObject = { $ref: '#/$defs/X' }): JsonObject => ({
  ...body,
  $defs: defs,
});

test('two definitions are one schema only by content, all they reach included, in one dialect', () => {
  const y = { type: 'string' };
  const rows: {
    name: string;
    sub: JsonObject;
    sup: JsonObject;
    at?: [string, string];
    dialects?: [Dialect, Dialect];
    same: boolean | undefined;
  }[] = [
    {
      name: 'unchanged definition, other definitions changed',
      sub: doc({ X: { $ref: '#/$defs/Y' }, Y: y, Z: { type: 'null' } }),
      sup: doc({ X: { $ref: '#/$defs/Y' }, Y: y, Z: { type: 'number' } }),
      same: true,
    },
    {
      name: 'a definition it reaches changed',
      sub: doc({ X: { $ref: '#/$defs/Y' }, Y: y }),
      sup: doc({ X: { $ref: '#/$defs/Y' }, Y: { type: 'number' } }),
      same: false,
    },
    {
      name: 'the same text read in two dialects',
      sub: doc({ X: y }),
      sup: doc({ X: y }),
      dialects: ['draft-07', '2020-12'],
      same: false,
    },
    {
      name: 'the same text under another name',
      sub: doc({ X: y, W: y }),
      sup: doc({ X: y, W: y }),
      at: ['/$defs/X', '/$defs/W'],
      same: false,
    },
    { name: 'a definition missing on one side', sub: doc({ X: y }), sup: doc({ W: y }), same: undefined },
    {
      name: 'a place inside a definition, not a whole one',
      sub: doc({ X: { properties: { a: y } } }),
      sup: doc({ X: { properties: { a: y } } }),
      at: ['/$defs/X/properties/a', '/$defs/X/properties/a'],
      same: undefined,
    },
    {
      name: 'definitions that scope references ($id)',
      sub: doc({ X: { $id: 'https://example.com/x', type: 'string' } }),
      sup: doc({ X: { $id: 'https://example.com/x', type: 'string' } }),
      same: undefined,
    },
  ];
  for (const r of rows) {
    const [a, b] = r.dialects ?? ['2020-12', '2020-12'];
    const ctx = ctxOf(r.sub, r.sup, a, b);
    const [subAt, supAt] = r.at ?? ['/$defs/X', '/$defs/X'];
    const ids = definitionIds(subAt, supAt, ctx);
    assert.equal(ids === undefined ? undefined : sameDefinition(ids, ctx), r.same, r.name);
  }
});

/** Each pair judged with one store shared by all (in order), and each alone. */
function sharedAndAlone(
  pairs: readonly { old: Schema; new: Schema }[],
  direction: Direction,
  options: JudgeOptions = {},
): { shared: SchemaComparison[]; alone: SchemaComparison[]; store: SharedDecisions } {
  const store = new SharedDecisions();
  const shared = pairs.map((p) => compareSchemas(p.old, p.new, direction, { ...options, decisions: store }));
  const alone = pairs.map((p) => compareSchemas(p.old, p.new, direction, options));
  return { shared, alone, store };
}

test('every definition of the MCP specification revisions: shared decisions change no answer', () => {
  const pairs = specPairs();
  for (const direction of ['input', 'output'] as const) {
    const { shared, alone, store } = sharedAndAlone(pairs, direction);
    assert.ok(store.size > 100, `${direction}: ${store.size} pairs kept`);
    assert.ok(store.replayed > 200, `${direction}: ${store.replayed} pairs replayed`);
    pairs.forEach((p, i) =>
      assert.deepEqual(shared[i], alone[i], `${direction} ${(p as { name: string }).name}`),
    );
  }
});

test('mutually recursive definitions, in both orders: the same failures in the same places', () => {
  // A → B → A: deciding A assumes A while B is decided, so B's result leans on it and is not
  // kept; B judged next (its own tool) is decided afresh, and meets A decided whole.
  const defs = (leaf: JsonObject): JsonObject => ({
    A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
    B: { type: 'object', properties: { a: { $ref: '#/$defs/A' }, v: leaf } },
  });
  const tool = (name: string, leaf: JsonObject): JsonObject => ({
    ...doc(defs(leaf), { $ref: `#/$defs/${name}` }),
  });
  const a = { old: tool('A', { type: 'string' }), new: tool('A', { type: 'number' }) };
  const b = { old: tool('B', { type: 'string' }), new: tool('B', { type: 'number' }) };
  for (const order of [
    [a, b],
    [b, a],
  ]) {
    const { shared, alone } = sharedAndAlone(order, 'input');
    assert.deepEqual(shared.map(failures), alone.map(failures));
    for (const r of shared) {
      assert.equal(r.verdict, 'breaking');
      assert.deepEqual(failures(r).failures, ['breaking type-narrowed /$defs/B/properties/v/type']);
    }
  }
});

test('definitions that share names but not meanings are not shared', () => {
  const body = { $ref: '#/$defs/X' };
  const x = { type: 'object', properties: { y: { $ref: '#/$defs/Y' } } };
  const same = {
    old: doc({ X: x, Y: { type: 'string' } }, body),
    new: doc({ X: x, Y: { type: 'string' }, Z: { type: 'null' } }, body),
  };
  const narrowed = {
    old: doc({ X: x, Y: { type: ['string', 'number'] } }, body),
    new: doc({ X: x, Y: { type: 'string' } }, body),
  };
  const { shared, alone } = sharedAndAlone([same, narrowed, same], 'input');
  assert.deepEqual(shared, alone);
  assert.deepEqual(
    shared.map((r) => r.verdict),
    ['compatible', 'breaking', 'compatible'],
  );
});

test('fuzzed pairs judged as manifests of their definitions: the same answers as alone', () => {
  // Each fuzzed pair (a real schema with one or two edits) becomes a manifest: the pair itself
  // and one tool per definition of its documents, so the edited definitions are decided in one
  // tool and replayed in others, reached by other paths.
  const seeds = seedCorpus();
  let manifests = 0;
  let compared = 0;
  let same = 0;
  for (let i = 0; manifests < 60 && i < 2000; i++) {
    const pair = mutatePair(new Rng(mixSeed(20261203, i)), seeds);
    const container = ['$defs', 'definitions'].find(
      (c) => pair.old[c] !== undefined && pair.new[c] !== undefined,
    );
    if (container === undefined) continue;
    const names = Object.keys(pair.new[container] as JsonObject).filter((n) =>
      Object.hasOwn(pair.old[container] as JsonObject, n),
    );
    if (names.length < 2) continue;
    manifests++;
    const at = (s: JsonObject, name: string): JsonObject => ({
      ...s,
      $ref: `#/${container}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    });
    const tools = (side: 'old' | 'new'): JsonObject[] => [
      ...names.map((n, k) => ({
        name: `d${k}`,
        inputSchema: at(pair[side], n),
        outputSchema: at(pair[side], n),
      })),
      { name: 'pair', inputSchema: pair[side], outputSchema: pair[side] },
    ];
    const together = compareManifests({ tools: tools('old') }, { tools: tools('new') });
    const old = tools('old');
    tools('new').forEach((t, k) => {
      const alone = compareManifests({ tools: [old[k] as JsonObject] }, { tools: [t] });
      const a = alone.tools[0];
      const b = together.tools.find((x) => x.name === t.name);
      if (!a || !b || a.findings.some((f) => f.rule === 'budget-exhausted')) return;
      const where = `pair ${i} (${pair.family}, ${pair.seed}), tool ${String(t.name)}`;
      assert.deepEqual(failures(b), failures(a), where);
      for (const f of b.findings) assert.ok(f.verdict !== 'breaking' || f.witness !== undefined, where);
      if (isDeepStrictEqual(a, b)) same++;
      compared++;
    });
  }
  assert.ok(manifests >= 30, `${manifests} fuzzed pairs had definitions to share`);
  // Most tools get exactly what they get alone; the rest differ only in detail (see above).
  assert.ok(same > compared * 0.9, `${same} of ${compared} tools exactly as alone`);
});

test('what a run keeps is bounded, by pairs and by findings; past that, pairs are decided as before', () => {
  const finding = { rule: 'type-narrowed', verdict: 'breaking', pointer: '', args: {}, trail: [] } as const;
  const store = new SharedDecisions(3, 4);
  store.set('a', []);
  store.set('b', [finding, finding, finding]);
  store.set('c', [finding, finding]); // 5 findings: over the bound
  store.set('d', [finding]);
  store.set('e', []); // a fourth pair: over the bound
  assert.equal(store.size, 3);
  assert.equal(store.get('c'), undefined);
  assert.equal(store.get('e'), undefined);
  assert.deepEqual(store.get('d'), [finding]);
  assert.equal(store.replayed, 1);
});
