// Page cursors as a table: a cursor opens only for the tool, caller and arguments it was issued
// for, under the secret it was signed with; any other use is refused with its reason.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { openCursor, signCursor, type CursorBinding } from '../../src/core/cursor.ts';

const SECRET = Buffer.alloc(32, 7);
const BINDING: CursorBinding = {
  tool: 'search_members',
  caller: 'token:abc',
  args: { query: 'rust', status: 'member' },
};
const KEY = ['2026-01-01T00:00:00.000Z', 'p_42'];
const CURSOR = signCursor(SECRET, BINDING, KEY);

/** The cursor with its payload replaced, keeping the original signature. */
function withPayload(cursor: string, payload: unknown): string {
  const mac = cursor.slice(cursor.indexOf('.') + 1);
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
}

/**
 * A cursor signed over an arbitrary payload, as only a holder of the secret could make one: the
 * server's MAC (HMAC-SHA256 over the payload text, first 16 bytes), to reach the form checks.
 */
function resigned(payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', SECRET).update(body).digest().subarray(0, 16).toString('base64url')}`;
}

void describe('a cursor opens for exactly what it was issued for', () => {
  const rows: {
    case: string;
    cursor: string;
    secret?: Buffer;
    expected?: Partial<CursorBinding>;
    reason?: RegExp;
  }[] = [
    { case: 'the same tool, caller and arguments', cursor: CURSOR },
    {
      case: 'the same arguments in another key order',
      cursor: CURSOR,
      expected: { args: { status: 'member', query: 'rust' } },
    },
    {
      case: 'an argument left undefined is the same as one left out',
      cursor: CURSOR,
      expected: { args: { query: 'rust', status: 'member', after: undefined } },
    },
    {
      case: 'another server’s secret',
      cursor: CURSOR,
      secret: Buffer.alloc(32, 8),
      reason: /not issued by this club, or was altered/,
    },
    {
      case: 'a payload altered after signing',
      cursor: withPayload(CURSOR, [1, 'search_members', 'token:abc', 'x', ['z']]),
      reason: /not issued by this club, or was altered/,
    },
    { case: 'no signature', cursor: CURSOR.split('.')[0] ?? '', reason: /not issued by this club/ },
    { case: 'garbage', cursor: 'not a cursor', reason: /not issued by this club/ },
    { case: 'empty', cursor: '', reason: /not issued by this club/ },
    {
      case: 'another tool',
      cursor: CURSOR,
      expected: { tool: 'list_candidates' },
      reason: /pages search_members, not list_candidates/,
    },
    {
      case: 'another caller',
      cursor: CURSOR,
      expected: { caller: 'token:xyz' },
      reason: /another caller; cursors are not transferable/,
    },
    {
      case: 'other arguments',
      cursor: CURSOR,
      expected: { args: { query: 'go', status: 'member' } },
      reason: /search_members call with other arguments/,
    },
    {
      // Proves resigned() signs as the server does, so the two rows below fail on their form.
      case: 'the issued payload signed again',
      cursor: resigned(JSON.parse(Buffer.from(CURSOR.split('.')[0] ?? '', 'base64url').toString('utf8'))),
    },
    {
      case: 'a signed payload of an older form',
      cursor: resigned([0, 'search_members', 'token:abc', 'd', ['k']]),
      reason: /of a form this server no longer reads/,
    },
    {
      case: 'a signed payload whose key is not strings',
      cursor: resigned([1, 'search_members', 'token:abc', 'd', [1]]),
      reason: /of a form this server no longer reads/,
    },
  ];
  for (const row of rows) {
    void it(row.case, () => {
      const opened = openCursor(row.secret ?? SECRET, row.cursor, { ...BINDING, ...row.expected });
      if (!row.reason) return assert.deepEqual(opened, { ok: true, key: KEY });
      assert.equal(opened.ok, false);
      if (!opened.ok) assert.match(opened.reason, row.reason);
    });
  }
});

void describe('a cursor says where a page starts and nothing else', () => {
  void it('is opaque base64url text and a signature', () => assert.match(CURSOR, /^[\w-]+\.[\w-]{22}$/));
  void it('signs the same input to the same cursor (replicas agree)', () =>
    assert.equal(signCursor(SECRET, BINDING, KEY), CURSOR));
  void it('carries no argument values, only their digest', () => {
    const payload = Buffer.from(CURSOR.split('.')[0] ?? '', 'base64url').toString('utf8');
    assert.doesNotMatch(payload, /rust|member"/);
  });
});
