import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANSWERED, pipeline, type Step } from '../../src/core/pipeline.ts';

/** A step that records its name, and answers when told to. */
const step = (name: string, log: string[], answer = false, async = false): Step<{ n: number }> => ({
  name,
  run(ctx) {
    log.push(name);
    const out = answer ? ANSWERED : { n: ctx.n + 1 };
    return async ? Promise.resolve(out) : out;
  },
});

describe('an edge is a list of named steps', () => {
  it('runs the steps in order, each given what the one before handed on', async () => {
    const log: string[] = [];
    let seen = 0;
    const edge = pipeline<{ n: number }>()
      .then(step('a', log))
      .then(step('b', log, false, true))
      .then(step('c', log))
      .end({
        name: 'last',
        run(ctx) {
          seen = ctx.n;
          return ANSWERED;
        },
      });
    assert.deepEqual(edge.steps, ['a', 'b', 'c', 'last']);
    await edge.run({ n: 0 });
    assert.deepEqual(log, ['a', 'b', 'c']);
    assert.equal(seen, 3);
  });

  for (const async of [false, true]) {
    it(`a step that answers (${async ? 'later' : 'at once'}) is the last that runs`, async () => {
      const log: string[] = [];
      const edge = pipeline<{ n: number }>()
        .then(step('a', log))
        .then(step('refuses', log, true, async))
        .then(step('c', log))
        .end(step('last', log, true) as Step<{ n: number }, never>);
      await edge.run({ n: 0 });
      assert.deepEqual(log, ['a', 'refuses']);
    });
  }

  it('a step that throws stops the request; the error reaches the caller of run', async () => {
    const log: string[] = [];
    const edge = pipeline<{ n: number }>()
      .then({
        name: 'fails',
        run() {
          throw new Error('fault');
        },
      })
      .end(step('last', log, true) as Step<{ n: number }, never>);
    await assert.rejects(edge.run({ n: 0 }), /fault/);
    assert.deepEqual(log, []);
  });

  it('refuses two steps of one name, and a last step that hands the request on', async () => {
    const log: string[] = [];
    assert.throws(
      () =>
        pipeline<{ n: number }>()
          .then(step('a', log))
          .end(step('a', log, true) as Step<{ n: number }, never>),
      /two steps named a/,
    );
    const leaky = pipeline<{ n: number }>().end(step('last', log) as Step<{ n: number }, never>);
    await assert.rejects(leaky.run({ n: 0 }), /handed the request on/);
  });

  it('types refuse a step placed before what it needs', () => {
    interface Known {
      who: string;
    }
    const needsWho: Step<{ n: number } & Known> = { name: 'needs-who', run: (c) => c };
    const learnsWho: Step<{ n: number }, { n: number } & Known> = {
      name: 'learns-who',
      run: (c) => Object.assign(c, { who: 'x' }),
    };
    const end: Step<unknown, never> = { name: 'end', run: () => ANSWERED };
    pipeline<{ n: number }>().then(learnsWho).then(needsWho).end(end);
    // @ts-expect-error -- needs-who before learns-who: the compiler refuses the order.
    pipeline<{ n: number }>().then(needsWho);
  });
});
