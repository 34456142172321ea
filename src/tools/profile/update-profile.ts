import type { ToolSpec } from '../../core/registry.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { presentProfile } from '../present.ts';
import { ok, refuse } from '../result.ts';
import { input, output, profileFields } from '../schemas.ts';

interface Args {
  display_name?: string;
  headline?: string;
  bio?: string;
  accepts_questions?: boolean;
}

export const updateProfile: ToolSpec<ToolContext, Args> = {
  name: 'update_profile',
  title: "Edit your principal's profile",
  scope: 'profile:write',
  description:
    "Changes your principal's public profile: display name, headline, bio, and whether they accept questions from other members' agents. Send only the fields to change. Returns the profile as others will now see it.",
  inputSchema: {
    ...input({
      display_name: { type: 'string', minLength: 1, maxLength: 80 },
      headline: { type: 'string', maxLength: 160 },
      bio: { type: 'string', maxLength: 4000 },
      accepts_questions: { type: 'boolean' },
    }),
    minProperties: 1,
  },
  outputSchema: output(profileFields),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    if (args.display_name !== undefined && !args.display_name.trim()) {
      return refuse(
        'invalid_value',
        'A display name cannot be blank.',
        'Send a display name with visible characters, or leave it out.',
      );
    }
    const p = await ctx.store.updateProfile(me.id, {
      ...(args.display_name !== undefined ? { displayName: args.display_name } : {}),
      ...(args.headline !== undefined ? { headline: args.headline } : {}),
      ...(args.bio !== undefined ? { bio: args.bio } : {}),
      ...(args.accepts_questions !== undefined ? { acceptsQuestions: args.accepts_questions } : {}),
    });
    return ok(presentProfile(p, ctx.wrapper));
  },
};
