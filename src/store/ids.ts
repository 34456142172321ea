import { randomBytes } from 'node:crypto';

/** Short random ids with a type prefix, readable in logs and CLI output (tok_3f9a…). */
export function newId(prefix: 'pr' | 'tok' | 'ev' | 'q' | 'rv' | 'dc'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
