import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, refused, spyOnHandler, startClub, unwrap, type TestClub } from '../helpers/club.ts';

type Client = Awaited<ReturnType<TestClub['connect']>>;
interface MembersPage {
  members: { handle: string }[];
  next_cursor?: string;
}
interface QuestionsPage {
  questions: { id: string; question: unknown }[];
  next_cursor?: string;
}

/** Counts calls to a store method, to prove a refused request read no page. */
function countCalls(club: TestClub, method: 'pagePrincipals' | 'pageQuestions'): { calls: number } {
  const counter = { calls: 0 };
  const original = club.store[method].bind(club.store) as (...a: unknown[]) => Promise<unknown>;
  (club.store as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
    counter.calls++;
    return original(...a);
  };
  return counter;
}

describe('pagination: keyset pages with signed cursors', () => {
  let club: TestClub;
  let alice: Client;
  let bob: Client;
  let aliceAgain: Client;
  let anon: Client;
  before(async () => {
    // Rate limits off: these tests page through lists as fast as they can, often anonymously
    // (one address), and measure paging, not the 429 (which test/server/rate-limit.test.ts does).
    const off = { perSecond: 0, burst: 1 };
    club = await startClub({ rateLimits: { token: off, anonymous: off } });
    const a = await club.addMember('alice');
    alice = await club.connect(a.token);
    bob = await club.connect((await club.addMember('bob')).token);
    // The same principal's second token is another caller: cursors are bound to the token.
    const { issueAgentToken } = await import('../../src/admin/tokens.ts');
    const second = await issueAgentToken(club.store, club.registry, 'alice', { scopes: 'consult' });
    aliceAgain = await club.connect(second.token);
    anon = await club.connect();
    for (let i = 0; i < 45; i++) await club.addMember(`m${String(i * 2).padStart(3, '0')}`);
  });
  after(() => club.close());

  async function pageAll(client: Client, limit: number, between?: (page: number) => Promise<void>) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const r = await ok<MembersPage>(client, 'list_members', { limit, ...(cursor ? { cursor } : {}) });
      assert.ok(r.members.length <= limit);
      seen.push(...r.members.map((m) => m.handle));
      if (!r.next_cursor) return seen;
      cursor = r.next_cursor;
      await between?.(page);
    }
    throw new Error('never reached the last page');
  }

  it('pages a list by handle with a default of 20, and says nothing of a cursor on the last page', async () => {
    const first = await ok<MembersPage>(anon, 'list_members');
    assert.equal(first.members.length, 20);
    assert.ok(first.next_cursor);
    const all = await pageAll(anon, 100);
    assert.equal(all.length, 47);
    assert.deepEqual(all, [...all].sort());
    const last = await ok<MembersPage>(anon, 'list_members', { limit: 100 });
    assert.equal(last.next_cursor, undefined, 'next_cursor is absent on the last page');
  });

  it('yields every row exactly once while rows are inserted between pages', async () => {
    const before = await pageAll(anon, 100);
    let added = 0;
    const inserted: string[] = [];
    const seen = await pageAll(anon, 7, async (page) => {
      // One sorts before everything already read, one lands just after this page, one at the end.
      for (const h of [`a${page}x`, `m${String(page * 14 + 1).padStart(3, '0')}`, `z${page}`]) {
        await club.addMember(h);
        inserted.push(h);
        added++;
      }
    });
    assert.ok(added > 0);
    assert.equal(new Set(seen).size, seen.length, 'no row is repeated');
    for (const h of before) assert.ok(seen.includes(h), `${h}, present from the start, was not skipped`);
    // Rows inserted after the reader's position are read; those before it are not re-read.
    const afterPosition = inserted.filter((h) => h.startsWith('z'));
    for (const h of afterPosition) assert.ok(seen.includes(h), `${h} inserted ahead of the reader appears`);
  });

  it('a search that walks a bounded window answers short pages with a cursor, and paging on finds every match once', async () => {
    // The store's plan, shrunk so 45 rows exceed its window: each call checks at most 7 rows.
    const { pagePrincipals } = await import('../../src/store/pages.ts');
    const store = club.store as typeof club.store & { sql: Parameters<typeof pagePrincipals>[0] };
    const original = club.store.pagePrincipals.bind(club.store);
    club.store.pagePrincipals = (filter, page) =>
      pagePrincipals(store.sql, filter, page, { narrow: 1, broad: 2, window: 7 });
    try {
      const seen: string[] = [];
      let shortPagesWithCursor = 0;
      let cursor: string | undefined;
      for (let page = 0; page < 100 && (page === 0 || cursor); page++) {
        const r = await ok<MembersPage>(anon, 'list_members', {
          limit: 5,
          query: 'm0',
          ...(cursor ? { cursor } : {}),
        });
        seen.push(...r.members.map((m) => m.handle));
        if (r.members.length < 5 && r.next_cursor) shortPagesWithCursor++;
        cursor = r.next_cursor;
      }
      // The same answer as the store's own plan reads in one go.
      const all = await original({ status: 'member', acceptsQuestions: true, query: 'm0' }, { limit: 100 });
      assert.ok(all.rows.length >= 45);
      assert.deepEqual(
        seen,
        all.rows.map((p) => p.handle),
      );
      assert.ok(shortPagesWithCursor > 0, 'a window ended before a page filled at least once');
    } finally {
      club.store.pagePrincipals = original;
    }
  });

  it('pages time-ordered lists without skipping or repeating while new rows arrive', async () => {
    const target = await club.addMember('inbox-owner');
    const owner = await club.connect(target.token);
    const ids = async (h: string) => (await club.store.getPrincipalByHandle(h))!.id;
    const ask = async (from: string, question: string) =>
      club.store.createQuestion({ askerId: await ids(from), targetId: await ids('inbox-owner'), question });
    for (let i = 0; i < 25; i++) await ask('alice', `q${i}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    let asked = 25;
    for (;;) {
      const r = await ok<QuestionsPage>(owner, 'list_questions', { limit: 6, ...(cursor ? { cursor } : {}) });
      seen.push(...r.questions.map((q) => unwrap(q.question)));
      if (!r.next_cursor) break;
      cursor = r.next_cursor;
      if (asked < 31) await ask('bob', `q${asked++}`);
    }
    // Rows of one millisecond read in the order they were written: exactly the insertion order.
    assert.deepEqual(
      seen,
      Array.from({ length: asked }, (_, i) => `q${i}`),
      'each question once, oldest first, new ones included',
    );
  });

  it('refuses a tampered cursor, another tool’s cursor and another caller’s cursor, reading nothing', async () => {
    const page = await ok<MembersPage>(alice, 'list_members', { limit: 2 });
    const cursor = page.next_cursor!;
    const [payload, mac] = cursor.split('.');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const forged = Buffer.from(
      Buffer.from(payload!, 'base64url')
        .toString()
        .replace(/"m0\d\d"|"[a-z0-9-]+"\]\]$/, '"zzz"]]'),
    ).toString('base64url');
    const reads = countCalls(club, 'pagePrincipals');
    const cases: [Client, Record<string, unknown>, RegExp][] = [
      [alice, { cursor: `${flip(payload!)}.${mac}` }, /not issued by this club|altered/],
      [alice, { cursor: `${payload}.${flip(mac!)}` }, /not issued by this club|altered/],
      [alice, { cursor: `${forged}.${mac}` }, /not issued by this club|altered/],
      [alice, { cursor: 'not-a-cursor' }, /not issued by this club|altered/],
      [bob, { cursor }, /another caller/],
      [aliceAgain, { cursor }, /another caller/],
      [anon, { cursor }, /another caller/],
      [alice, { cursor, accepting_questions_only: false }, /other arguments/],
      [alice, { cursor, query: 'm0' }, /other arguments/],
    ];
    for (const [client, args, reason] of cases) {
      const r = await refused(client, 'list_members', args);
      assert.equal(r.code, 'invalid_cursor');
      assert.match(r.reason, reason);
      assert.match(r.next, /without a cursor/);
    }
    assert.equal(reads.calls, 0, 'no refused cursor read a page');
    // The genuine cursor still works for its own caller.
    const next = await ok<MembersPage>(alice, 'list_members', { limit: 2, cursor });
    assert.ok(next.members[0]!.handle > page.members[1]!.handle);
  });

  it('refuses a list_questions cursor on list_members even between two of one caller’s lists', async () => {
    const owner = await club.connect((await club.addMember('qowner')).token);
    const [from, to] = [
      await club.store.getPrincipalByHandle('bob'),
      await club.store.getPrincipalByHandle('qowner'),
    ];
    for (let i = 0; i < 3; i++)
      await club.store.createQuestion({ askerId: from!.id, targetId: to!.id, question: `x${i}` });
    const q = await ok<QuestionsPage>(owner, 'list_questions', { limit: 1 });
    const r = await refused(owner, 'list_members', { cursor: q.next_cursor! });
    assert.equal(r.code, 'invalid_cursor');
    assert.match(r.reason, /pages list_questions, not list_members/);
    const e = await refused(owner, 'list_questions', { cursor: q.next_cursor!, status: 'all' });
    assert.match(e.reason, /other arguments/);
  });

  it('refuses limit 0, negative, 101, non-integer and a string by the schema, before the handler runs', async () => {
    const spy = spyOnHandler(club.registry, 'list_members');
    for (const limit of [0, -1, 101, 2.5, '10']) {
      const r = await refused(anon, 'list_members', { limit });
      assert.equal(r.code, 'invalid_arguments');
      assert.match(r.reason, /\/limit must be (>=|<=|integer)/, `limit ${String(limit)}: ${r.reason}`);
    }
    assert.equal(spy.calls, 0);
  });
});
