import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import type { SqlStore } from '../../../src/store/sql-store.ts';
import { authorOf, forHumans, newWrapper, type MemberText } from '../../../src/untrusted/index.ts';

/** One store backend under test: each call gives a fresh, empty, migrated store. */
export interface Backend {
  open(): Promise<SqlStore>;
}

/** Opens a fresh store before each test of the enclosing suite and closes it after. */
export function useStore(backend: Backend): () => SqlStore {
  let store: SqlStore | undefined;
  beforeEach(async () => {
    store = await backend.open();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    assert.ok(store, 'no store is open');
    return store;
  };
}

/**
 * Asserts that a field came back as member text (not a plain string) saying `raw`,
 * attributed to `author` by the store, and that wrapping it keeps that attribution.
 */
export function assertMemberText(value: MemberText | null, raw: string, author: string): void {
  assert.ok(value !== null && typeof value === 'object', 'member-written field must come back as MemberText');
  assert.equal(authorOf(value), author);
  assert.equal(forHumans(value), raw);
  assert.equal(newWrapper().wrap(value).author, author);
}

/** A moment far from now, for "since" queries and explicit timestamps. */
export const PAST = '2000-01-01T00:00:00.000Z';
export const FUTURE = '2999-01-01T00:00:00.000Z';
