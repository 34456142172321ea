import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPrincipal } from '../../src/admin/principals.ts';
import { ok, refused, startClub, type TestClub } from '../helpers/club.ts';

type Client = Awaited<ReturnType<TestClub['connect']>>;
const handles = (r: { members?: { handle: string }[]; candidates?: { handle: string }[] }) =>
  (r.members ?? r.candidates ?? []).map((m) => m.handle);

describe('search: query finds people by handle, name and headline, never beyond what the caller sees', () => {
  let club: TestClub;
  let member: Client;
  let anon: Client;
  before(async () => {
    club = await startClub();
    member = await club.connect((await club.addMember('alice')).token);
    anon = await club.connect();
    const people: [string, 'member' | 'candidate', string, string, boolean?][] = [
      ['rustacean', 'member', 'Ferris Crab', 'Writes compilers'],
      ['maria_lopez', 'member', 'María López', 'Runs the RUST meetup'],
      ['quiet-one', 'member', 'Quentin Rust', 'Prefers no questions', false],
      ['hidden', 'member', 'Rusty Suspended', 'Rust everywhere'],
      ['cand_rust', 'candidate', 'Rosa Candidate', 'Rust apprentice'],
      ['boat-builder', 'member', 'Ben', 'Builds boats'],
    ];
    for (const [handle, status, name, headline, accepts] of people) {
      const p = await addPrincipal(club.store, handle, { status, name });
      await club.store.updateProfile(p.id, {
        headline,
        ...(accepts === false ? { acceptsQuestions: false } : {}),
      });
    }
    await club.store.setPrincipalStatus((await club.store.getPrincipalByHandle('hidden'))!.id, 'suspended');
  });
  after(() => club.close());

  it('matches a handle, a display name and a headline word, whatever the case and accents’ case', async () => {
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'rustac' })), ['rustacean']);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'FERRIS' })), ['rustacean']);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'compil' })), ['rustacean']);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'MARÍA' })), ['maria_lopez']);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'lopez' })), ['maria_lopez']);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'rust meet' })), ['maria_lopez']);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'nobody-like-this' })), []);
  });

  it('never returns a suspended principal, a candidate, or (by default) one who declines questions', async () => {
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'rust' })), [
      'maria_lopez',
      'rustacean',
    ]);
    assert.deepEqual(
      handles(await ok(anon, 'list_members', { query: 'rust', accepting_questions_only: false })),
      ['maria_lopez', 'quiet-one', 'rustacean'],
    );
    assert.deepEqual(handles(await ok(member, 'list_candidates', { query: 'rust' })), ['cand_rust']);
    assert.deepEqual(handles(await ok(member, 'list_candidates', { query: 'ferris' })), []);
    // Anonymous callers cannot search candidates at all: the tool is absent for them.
    const r = await anon
      .callTool({ name: 'list_candidates', arguments: { query: 'rust' } })
      .catch((e: Error) => e);
    assert.ok(r instanceof Error && /not found/.test(r.message));
  });

  it('follows a renamed profile: old words no longer match, new ones do', async () => {
    const p = (await club.store.getPrincipalByHandle('boat-builder'))!;
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'boats' })), ['boat-builder']);
    await club.store.updateProfile(p.id, { headline: 'Flies kites', displayName: 'Benedict' });
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'boats' })), []);
    assert.deepEqual(handles(await ok(anon, 'list_members', { query: 'kites bened' })), ['boat-builder']);
  });

  it('refuses an empty or oversized query by the schema', async () => {
    for (const query of ['', 'x'.repeat(101), 42]) {
      const r = await refused(anon, 'list_members', { query });
      assert.equal(r.code, 'invalid_arguments');
      assert.match(r.reason, /\/query/);
    }
  });

  it('is served by the terms index, and lists by the status-and-handle index (SQLite query plan)', async () => {
    const sqlite = (
      club.store as unknown as {
        sql: { db: { prepare(s: string): { all(...p: unknown[]): { detail: string }[] } } };
      }
    ).sql.db;
    const plan = (sql: string, ...params: unknown[]) =>
      sqlite
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => r.detail)
        .join(' | ');
    const search = plan(
      `SELECT p.* FROM principals p WHERE p.status = ? AND p.accepts_questions = ? AND p.handle > ?
       AND p.id IN (SELECT t.principal_id FROM principal_terms t WHERE t.term >= ? AND t.term < ?)
       ORDER BY p.handle LIMIT ?`,
      'member',
      1,
      '',
      'rust',
      'rusu',
      21,
    );
    assert.match(search, /principal_terms/);
    assert.doesNotMatch(search, /SCAN t\b|SCAN principal_terms/);
    const page = plan(
      `SELECT p.* FROM principals p WHERE p.status = ? AND p.handle > ? ORDER BY p.handle LIMIT ?`,
      'member',
      'm',
      21,
    );
    assert.match(page, /principals_status_handle/);
    assert.doesNotMatch(page, /TEMP B-TREE/, 'no sort: the index gives the order');
  });
});
