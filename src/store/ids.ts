import { randomBytes } from 'node:crypto';

let lastMs = 0;
let seq = 0;

/** Random bytes drawn a page at a time: one draw per id cost more than the rest of a row's write. */
const POOL = 4096;
let pool = Buffer.alloc(0);
let used = POOL;

function randomHex8(): string {
  if (used + 4 > pool.length) {
    pool = randomBytes(POOL);
    used = 0;
  }
  used += 4;
  return pool.toString('hex', used - 4, used);
}

/**
 * Ids with a type prefix, readable in logs and CLI output (q_019bd3c1a2f0000a3f9a…),
 * that sort in the order this process made them: 12 hex digits of milliseconds, 4 of
 * a sequence within the millisecond, then 8 random ones so replicas never collide.
 * Lists ordered by (created time, id) therefore read rows of one millisecond in the
 * order they were written, and a row added after a page was read sorts after it.
 */
export function newId(prefix: 'pr' | 'tok' | 'ev' | 'q' | 'rv' | 'dc'): string {
  const now = Math.max(Date.now(), lastMs);
  if (now === lastMs) seq++;
  else {
    lastMs = now;
    seq = 0;
  }
  if (seq > 0xffff) {
    lastMs++; // more than 65,536 ids in one millisecond: borrow the next one
    seq = 0;
  }
  return `${prefix}_${lastMs.toString(16).padStart(12, '0')}${seq.toString(16).padStart(4, '0')}${randomHex8()}`;
}
