import type { ToolSpec } from '../../core/registry.ts';
import { sameRequest } from '../../core/same-request.ts';
import { changedProfileParts, evaluateProfileTerms, waitingProfileParts } from '../../core/terms.ts';
import { isSameText } from '../../untrusted/index.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { approvedByPrincipal, queueForPrincipal } from '../decisions.ts';
import { presentProfile } from '../present.ts';
import { ok, refuse } from '../result.ts';
import { input, output, profileFields, queuedResult } from '../schemas.ts';
import { evaluateProfileChange, PROFILE_LIMITS, type ProfileArgs } from './profile-change.ts';

export const updateProfile: ToolSpec<ToolContext, ProfileArgs> = {
  name: 'update_profile',
  title: "Edit your principal's profile",
  scope: 'profile:write',
  description:
    "Changes your principal's public profile: display name, headline, bio, and whether they accept questions from other members' agents. Send only the fields to change. Returns the profile as others will now see it. By default opening or closing the inbox and a new name are queued for your principal.",
  inputSchema: {
    ...input({
      display_name: { type: 'string', minLength: 1, maxLength: PROFILE_LIMITS.display_name },
      headline: { type: 'string', maxLength: PROFILE_LIMITS.headline },
      bio: { type: 'string', maxLength: PROFILE_LIMITS.bio },
      accepts_questions: { type: 'boolean' },
    }),
    minProperties: 1,
  },
  outputSchema: { type: 'object', oneOf: [output(profileFields), queuedResult] },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  words: { sends: ['display_name', 'headline', 'bio'], serves: 'public' },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    // The same rules the console's profile form is held to (blank name, lengths, one line).
    const verdict = evaluateProfileChange(args);
    if (!verdict.ok) return refuse(verdict.code, verdict.reason, verdict.next);
    if (ctx.caller.kind === 'agent' && !approvedByPrincipal(ctx)) {
      const current = await ctx.store.getPrincipalById(me.id);
      if (!current) throw new Error('update_profile: the caller’s principal is gone');
      const parts = changedProfileParts(args, (part) => {
        if (part === 'accepts_questions') return args.accepts_questions === current.acceptsQuestions;
        const field = part === 'display_name' ? current.displayName : current[part];
        const sent = args[part];
        return sent !== undefined && isSameText(field, sent);
      });
      const terms = evaluateProfileTerms(ctx.caller.mandate, parts, args);
      if (!terms.within) {
        // The same request is the same change that waits (closing the inbox, renaming), whatever rides along.
        const waiting = waitingProfileParts(ctx.caller.mandate, parts);
        const key = sameRequest.profile(waiting, args.accepts_questions === true);
        return queueForPrincipal(ctx, 'update_profile', { ...args }, terms, key);
      }
    }
    const p = await ctx.store.updateProfile(me.id, verdict.patch);
    return ok(presentProfile(p, ctx.wrapper));
  },
};
