import type { ToolSpec } from '../../core/registry.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { presentProfile } from '../present.ts';
import { ok, refuse } from '../result.ts';
import { input, output, profileFields } from '../schemas.ts';
import { evaluateProfileChange, PROFILE_LIMITS, type ProfileArgs } from './profile-change.ts';

export const updateProfile: ToolSpec<ToolContext, ProfileArgs> = {
  name: 'update_profile',
  title: "Edit your principal's profile",
  scope: 'profile:write',
  description:
    "Changes your principal's public profile: display name, headline, bio, and whether they accept questions from other members' agents. Send only the fields to change. Returns the profile as others will now see it.",
  inputSchema: {
    ...input({
      display_name: { type: 'string', minLength: 1, maxLength: PROFILE_LIMITS.display_name },
      headline: { type: 'string', maxLength: PROFILE_LIMITS.headline },
      bio: { type: 'string', maxLength: PROFILE_LIMITS.bio },
      accepts_questions: { type: 'boolean' },
    }),
    minProperties: 1,
  },
  outputSchema: output(profileFields),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  words: { sends: ['display_name', 'headline', 'bio'], serves: 'public' },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    // The same rules the console's profile form is held to (blank name, lengths, one line).
    const verdict = evaluateProfileChange(args);
    if (!verdict.ok) return refuse(verdict.code, verdict.reason, verdict.next);
    const p = await ctx.store.updateProfile(me.id, verdict.patch);
    return ok(presentProfile(p, ctx.wrapper));
  },
};
