import { isHandle } from '../core/handles.ts';
import type { PrincipalStatus } from '../core/tiers.ts';
import type { PrincipalRecord, Store } from '../store/contract.ts';
import { singleLineProblem } from '../untrusted/index.ts';
import { AdminRefusal } from './errors.ts';
import { staleOutcome } from './stale.ts';

/** Looks a principal up by handle or refuses with the handle named. */
export async function requirePrincipal(store: Store, handle: string): Promise<PrincipalRecord> {
  const p = await store.getPrincipalByHandle(handle);
  if (!p) throw new AdminRefusal('not_found', `No principal has the handle "${handle}".`);
  return p;
}

export async function addPrincipal(
  store: Store,
  handle: string,
  opts: { status?: 'candidate' | 'member'; name?: string; operator?: boolean },
): Promise<PrincipalRecord> {
  if (!isHandle(handle)) {
    throw new AdminRefusal(
      'invalid_handle',
      `"${handle}" is not a valid handle: 2 to 32 characters, lowercase letters, digits, "_" or "-", starting with a letter or digit.`,
    );
  }
  // A name given here is a display name like any other: read on one line.
  const broken = opts.name === undefined ? null : singleLineProblem(opts.name, 'A display name');
  if (broken) throw new AdminRefusal('invalid_value', broken.reason, broken.next);
  const existing = await store.getPrincipalByHandle(handle);
  if (existing) {
    throw new AdminRefusal(
      'conflict',
      `A principal with the handle "${handle}" exists already (${existing.status}${existing.operator ? ', an operator' : ''}); nothing was changed.`,
      existingNext(existing, opts),
    );
  }
  const p = await store.createPrincipal({
    handle,
    status: opts.status ?? 'candidate',
    displayName: opts.name ?? handle,
  });
  if (!opts.operator) return p;
  await store.setOperator(p.id, true);
  return (await store.getPrincipalById(p.id))!;
}

/** What to do instead of adding again: the act that changes what was asked for, if any. */
function existingNext(
  p: PrincipalRecord,
  asked: { status?: 'candidate' | 'member'; operator?: boolean },
): string {
  const acts: string[] = [];
  if (asked.status === 'member' && p.status === 'candidate')
    acts.push(`admit them (warden admin principal admit ${p.handle})`);
  if (asked.status === 'member' && p.status === 'suspended')
    acts.push(`reinstate them (warden admin principal reinstate ${p.handle})`);
  if (asked.operator && !p.operator)
    acts.push(`make them an operator (warden admin operator grant ${p.handle})`);
  if (acts.length === 0) return `Use ${p.handle} as they are, or choose another handle.`;
  return `To change them, ${acts.join(' and ')}; or choose another handle.`;
}

/** Grants or revokes the operator role (console pages for admission, suspension, sign-in links). */
export async function setOperatorRole(
  store: Store,
  handle: string,
  operator: boolean,
): Promise<PrincipalRecord> {
  const p = await requirePrincipal(store, handle);
  if (p.operator === operator) {
    throw new AdminRefusal(
      'conflict',
      `${handle} ${operator ? 'is an operator already' : 'is not an operator'}.`,
    );
  }
  await store.setOperator(p.id, operator);
  return (await store.getPrincipalById(p.id))!;
}

/** Admission (candidate → member) and suspension are the club's acts, done by a person. */
export async function setStatus(
  store: Store,
  handle: string,
  status: PrincipalStatus,
  now = new Date(),
): Promise<PrincipalRecord> {
  const p = await requirePrincipal(store, handle);
  if (status === 'member' && p.status !== 'candidate' && p.status !== 'suspended') {
    throw new AdminRefusal('conflict', `${handle} is already a member.`);
  }
  if (p.status === status) throw new AdminRefusal('conflict', `${handle} is already ${status}.`);
  if (status === 'suspended') {
    // Static tokens stop because auth reads the status per request, and come back with a
    // reinstatement; OAuth grants end for good in the same write (a client signs in anew).
    const at = now.toISOString();
    await store.suspendPrincipal(
      p.id,
      at,
      staleOutcome(
        'token_revoked',
        `The connection that asked was revoked on ${at}: its principal was suspended, which ended every connection made by signing in and withdrew the requests their agents had queued.`,
      ),
    );
    // Suspension ends every console session at once.
    await store.deleteSessionsOf(p.id);
  } else await store.setPrincipalStatus(p.id, status);
  return (await store.getPrincipalById(p.id))!;
}
