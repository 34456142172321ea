import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCHEMA_BOUNDS } from '../../src/compat/bounds.ts';
import { mapJson, SKIP, STOP, walkJson, WHOLE, type WalkEnd } from '../../src/compat/json-walk.ts';

// The one bounded walk over JSON values (json-walk.ts): what it visits, in which order, with
// which context, and how it ends, however deep or large the value.

/** Each visit as `key@depth`, and how the walk ended. */
function trace(
  value: unknown,
  bounds = SCHEMA_BOUNDS,
  answer: (v: unknown, key: string | number | undefined) => null | typeof SKIP | typeof STOP = () => null,
): { seen: string[]; end: WalkEnd } {
  const seen: string[] = [];
  const end = walkJson(
    value,
    null,
    (v, key, depth) => {
      seen.push(`${String(key ?? '#')}@${depth}`);
      return answer(v, key);
    },
    bounds,
  );
  return { seen, end };
}

/** `{"a": {"a": … 1}}`, nested n deep. */
function nested(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

describe('walkJson', () => {
  const rows: {
    case: string;
    value: unknown;
    bounds?: typeof SCHEMA_BOUNDS;
    skip?: string;
    stop?: string;
    seen: string[];
    end: WalkEnd;
  }[] = [
    { case: 'a scalar is one visit', value: 3, seen: ['#@0'], end: 'complete' },
    {
      case: 'members pushed in order, the last visited first, each subtree whole',
      value: { a: [1, 2], b: { c: null } },
      seen: ['#@0', 'b@1', 'c@2', 'a@1', '1@2', '0@2'],
      end: 'complete',
    },
    {
      case: 'SKIP leaves a value’s members out',
      value: { a: [1, 2], b: { c: null } },
      skip: 'a',
      seen: ['#@0', 'b@1', 'c@2', 'a@1'],
      end: 'complete',
    },
    {
      case: 'STOP ends the walk at once',
      value: { a: [1, 2], b: { c: null } },
      stop: 'b',
      seen: ['#@0', 'b@1'],
      end: 'stopped',
    },
    {
      case: 'a value deeper than the bound ends it, scalars included',
      value: { a: { b: 1 } },
      bounds: { maxDepth: 1, maxValues: 100 },
      seen: ['#@0', 'a@1'],
      end: 'too-deep',
    },
    {
      case: 'at the depth bound exactly, the walk completes',
      value: { a: { b: 1 } },
      bounds: { maxDepth: 2, maxValues: 100 },
      seen: ['#@0', 'a@1', 'b@2'],
      end: 'complete',
    },
    {
      case: 'more values than the bound ends it',
      value: [1, 2, 3],
      bounds: { maxDepth: 10, maxValues: 3 },
      seen: ['#@0', '2@1', '1@1'],
      end: 'too-large',
    },
  ];
  for (const row of rows) {
    it(row.case, () => {
      const got = trace(row.value, row.bounds, (_, key) =>
        row.stop !== undefined && key === row.stop
          ? STOP
          : row.skip !== undefined && key === row.skip
            ? SKIP
            : null,
      );
      assert.deepEqual(got, { seen: row.seen, end: row.end });
    });
  }

  it('walks far deeper than the call stack could, and stops at the schema bound', () => {
    const deep = nested(200_000);
    assert.equal(trace(deep, { maxDepth: Infinity, maxValues: Infinity }).end, 'complete');
    const within = trace(nested(SCHEMA_BOUNDS.maxDepth - 1));
    assert.equal(within.end, 'complete');
    assert.equal(trace(deep).end, 'too-deep');
  });

  it('hands each value the context its parent’s visit returned', () => {
    const paths: string[] = [];
    walkJson(
      { a: [{ b: 1 }] },
      '',
      (v, key, _, at) => {
        const here = key === undefined ? '' : `${at}/${String(key)}`;
        if (typeof v !== 'object') paths.push(here);
        return here;
      },
      SCHEMA_BOUNDS,
    );
    assert.deepEqual(paths, ['/a/0/b']);
  });
});

describe('walkJson, members chosen', () => {
  it('walks only the members named for a context, in the order named, and only those present', () => {
    const seen: string[] = [];
    walkJson(
      { a: { x: 1, y: 2 }, b: 3, c: { x: 4 } },
      'top',
      (v, key) => {
        seen.push(String(key ?? '#'));
        return key === undefined ? 'top' : 'inner';
      },
      SCHEMA_BOUNDS,
      (context) => (context === 'top' ? ['c', 'z', 'a'] : undefined),
    );
    // c and a pushed in that order (z absent), so a is taken first; inner objects walk every member.
    assert.deepEqual(seen, ['#', 'a', 'y', 'x', 'c', 'x']);
  });
});

describe('mapJson', () => {
  /** Every number doubled; each leave recorded as `key@depth`. */
  function doubled(value: unknown, bounds = SCHEMA_BOUNDS, skip?: string) {
    const left: string[] = [];
    const got = mapJson(
      value,
      0,
      (_, key, depth) => (skip !== undefined && key === skip ? SKIP : depth),
      (v, key, depth) => {
        left.push(`${String(key ?? '#')}@${depth}`);
        return typeof v === 'number' ? v * 2 : v;
      },
      bounds,
    );
    return { ...got, left };
  }

  const rows: {
    case: string;
    value: unknown;
    skip?: string;
    bounds?: typeof SCHEMA_BOUNDS;
    want: unknown;
    left: string[];
    end: WalkEnd;
  }[] = [
    { case: 'a scalar is rewritten by itself', value: 3, want: 6, left: ['#@0'], end: 'complete' },
    {
      case: 'members first, in document order, then the container',
      value: { a: [1, 2], b: { c: 3 } },
      want: { a: [2, 4], b: { c: 6 } },
      left: ['0@2', '1@2', 'a@1', 'c@2', 'b@1', '#@0'],
      end: 'complete',
    },
    {
      case: 'SKIP keeps a value as it is, unwalked',
      value: { a: [1, 2], b: 3 },
      skip: 'a',
      want: { a: [1, 2], b: 6 },
      left: ['b@1', '#@0'],
      end: 'complete',
    },
    {
      case: 'past a bound, the value comes back as given',
      value: { a: { b: 1 } },
      bounds: { maxDepth: 1, maxValues: 100 },
      want: { a: { b: 1 } },
      left: [],
      end: 'too-deep',
    },
    {
      case: 'more values than the bound',
      value: [1, 2, 3],
      bounds: { maxDepth: 10, maxValues: 3 },
      want: [1, 2, 3],
      left: ['0@1', '1@1'],
      end: 'too-large',
    },
  ];
  for (const row of rows) {
    it(row.case, () => {
      const got = doubled(row.value, row.bounds, row.skip);
      assert.deepEqual(got, { end: row.end, value: row.want, left: row.left });
    });
  }

  it('copies only what changed, and never the value given', () => {
    const same = { s: 'x' };
    const value = { keep: same, list: ['y', 1], n: 1 };
    const got = doubled(value).value as typeof value;
    assert.deepEqual(value, { keep: same, list: ['y', 1], n: 1 });
    assert.equal(got.keep, same);
    assert.notEqual(got.list, value.list);
    const untouched = { a: ['x', { b: 'y' }] };
    assert.equal(doubled(untouched).value, untouched);
  });

  it('keeps a member named __proto__ a member of the copy', () => {
    const value = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;
    const got = doubled(value).value as Record<string, unknown>;
    assert.deepEqual(Object.entries(got), [
      ['__proto__', 2],
      ['a', 4],
    ]);
    assert.equal(Object.getPrototypeOf(got), Object.prototype);
  });

  it('rewrites far deeper than the call stack could', () => {
    const deep = nested(200_000);
    const got = doubled(deep, WHOLE);
    assert.equal(got.end, 'complete');
    let v = got.value as { a: unknown };
    for (let i = 0; i < 200_000; i++) v = v.a as { a: unknown };
    assert.equal(v, 2);
  });
});
