import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import type { SqlStore } from '../../../src/store/sql-store.ts';
import { newWrapper, type MemberText } from '../../../src/untrusted/index.ts';

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
 * Asserts that a field came back as member text (not a plain string) holding `raw`,
 * attributed to `author`. Only wrapping opens it, exactly as a tool would.
 */
export function assertMemberText(value: MemberText | null, raw: string, author: string): void {
  assert.ok(value !== null && typeof value === 'object', 'member-written field must come back as MemberText');
  const wrapped = newWrapper().wrap(value);
  assert.equal(wrapped.author, author);
  assert.ok(wrapped.text.includes(raw), `wrapped text should carry ${JSON.stringify(raw)}: ${wrapped.text}`);
}

/** A moment far from now, for "since" queries and explicit timestamps. */
export const PAST = '2000-01-01T00:00:00.000Z';
export const FUTURE = '2999-01-01T00:00:00.000Z';
