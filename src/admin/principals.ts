import type { PrincipalStatus } from '../core/tiers.ts';
import type { PrincipalRecord, Store } from '../store/contract.ts';
import { HANDLE_PATTERN } from '../tools/schemas.ts';
import { AdminRefusal } from './errors.ts';

const HANDLE = new RegExp(HANDLE_PATTERN);

/** Looks a principal up by handle or refuses with the handle named. */
export async function requirePrincipal(store: Store, handle: string): Promise<PrincipalRecord> {
  const p = await store.getPrincipalByHandle(handle);
  if (!p) throw new AdminRefusal('not_found', `No principal has the handle "${handle}".`);
  return p;
}

export async function addPrincipal(
  store: Store,
  handle: string,
  opts: { status?: 'candidate' | 'member'; name?: string },
): Promise<PrincipalRecord> {
  if (!HANDLE.test(handle)) {
    throw new AdminRefusal(
      'invalid_handle',
      `"${handle}" is not a valid handle: 2 to 32 characters, lowercase letters, digits, "_" or "-", starting with a letter or digit.`,
    );
  }
  if (await store.getPrincipalByHandle(handle)) {
    throw new AdminRefusal('conflict', `A principal with the handle "${handle}" exists already.`);
  }
  return store.createPrincipal({
    handle,
    status: opts.status ?? 'candidate',
    displayName: opts.name ?? handle,
  });
}

/** Admission (candidate → member) and suspension are the club's acts, done by a person. */
export async function setStatus(
  store: Store,
  handle: string,
  status: PrincipalStatus,
): Promise<PrincipalRecord> {
  const p = await requirePrincipal(store, handle);
  if (status === 'member' && p.status !== 'candidate' && p.status !== 'suspended') {
    throw new AdminRefusal('conflict', `${handle} is already a member.`);
  }
  if (p.status === status) throw new AdminRefusal('conflict', `${handle} is already ${status}.`);
  await store.setPrincipalStatus(p.id, status);
  return (await store.getPrincipalById(p.id))!;
}
