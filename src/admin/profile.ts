import type { PrincipalRecord } from '../store/contract.ts';
import { evaluateProfileChange, type ProfileArgs } from '../tools/profile/profile-change.ts';
import { runAsPrincipal, type AdminDeps } from './as-principal.ts';
import { AdminRefusal } from './errors.ts';
import { requirePrincipal } from './principals.ts';

/** How long each text field may be, for a form to say so before the rules refuse it. */
export { PROFILE_LIMITS } from '../tools/profile/profile-change.ts';

/** A change the principal makes to their own profile in person: only the fields to change. */
export interface ProfileEdit {
  displayName?: string;
  headline?: string;
  bio?: string;
  acceptsQuestions?: boolean;
}

/**
 * Edits a principal's public profile in person (the console's profile form). It runs
 * `update_profile` as the principal, so the change takes exactly the path an agent's does
 * (input schema, the shared profile rules, the store write, the output check); the rules are
 * asked first as well, so a refusal reads in words rather than as a schema path. Refuses
 * with the rule's own code and reason; nothing is written then.
 */
export async function editProfile(
  deps: AdminDeps,
  handle: string,
  edit: ProfileEdit,
): Promise<PrincipalRecord> {
  const p = await requirePrincipal(deps.store, handle);
  const args: ProfileArgs = {
    ...(edit.displayName !== undefined ? { display_name: edit.displayName } : {}),
    ...(edit.headline !== undefined ? { headline: edit.headline } : {}),
    ...(edit.bio !== undefined ? { bio: edit.bio } : {}),
    ...(edit.acceptsQuestions !== undefined ? { accepts_questions: edit.acceptsQuestions } : {}),
  };
  const verdict = evaluateProfileChange(args);
  if (!verdict.ok) throw new AdminRefusal(verdict.code, verdict.reason, verdict.next);
  const result = await runAsPrincipal(deps, p, 'update_profile', args);
  if (result.kind === 'refused') throw AdminRefusal.passOn(result.refusal);
  if (result.kind === 'unknown_tool') throw new Error('update_profile is not registered');
  return (await deps.store.getPrincipalById(p.id))!;
}
