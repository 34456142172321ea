import type { AdminRefusalCode, Refusal, ToolRefusalCode } from '../../core/refusal.ts';
import type { ProfilePatch } from '../../store/contract.ts';
import { singleLineProblem } from '../../untrusted/index.ts';

/** Longest each text field may be, in characters (code points, as JSON Schema counts). */
export const PROFILE_LIMITS = { display_name: 80, headline: 160, bio: 4000 } as const;

/** A change to a principal's public profile, in the tool's words: only the fields to change. */
export interface ProfileArgs {
  display_name?: string;
  headline?: string;
  bio?: string;
  accepts_questions?: boolean;
}

/** Given to an agent (the tool) and to a person (admin/): a code of both families. */
export type ProfileVerdict =
  { ok: true; patch: ProfilePatch } | ({ ok: false } & Refusal<ToolRefusalCode & AdminRefusalCode>);

const NAMES = { display_name: 'A display name', headline: 'A headline', bio: 'A bio' } as const;
/** Read on one line wherever they appear (lists, headers, a table cell): a line break is refused. */
const SINGLE_LINE = ['display_name', 'headline'] as const;

/**
 * Whether a profile change may be written, and the store patch if so: the one set of rules for
 * `update_profile` (an agent, or the principal through the tool) and for the console's profile
 * form, which reaches it through admin/. The tool's input schema checks types and lengths
 * before its handler runs; the lengths are checked here too so a person at the console is
 * answered in words rather than by a schema path. Pure.
 */
export function evaluateProfileChange(args: ProfileArgs): ProfileVerdict {
  const refused = (reason: string, next: string): ProfileVerdict => ({
    ok: false,
    code: 'invalid_value',
    reason,
    next,
  });
  if (Object.values(args).every((v) => v === undefined)) {
    return refused(
      'Nothing to change: no field of the profile was given.',
      'Give at least one field to change.',
    );
  }
  if (args.display_name !== undefined && !args.display_name.trim()) {
    return refused(
      'A display name cannot be blank.',
      'Send a display name with visible characters, or leave it out.',
    );
  }
  for (const field of ['display_name', 'headline', 'bio'] as const) {
    const value = args[field];
    if (value === undefined) continue;
    const length = [...value].length;
    if (length > PROFILE_LIMITS[field]) {
      return refused(
        `${NAMES[field]} is at most ${PROFILE_LIMITS[field]} characters; this one has ${length}. Nothing was written.`,
        'Shorten it, then send it again.',
      );
    }
  }
  for (const field of SINGLE_LINE) {
    const value = args[field];
    const problem = value === undefined ? null : singleLineProblem(value, NAMES[field]);
    if (problem) return refused(problem.reason, problem.next);
  }
  return {
    ok: true,
    patch: {
      ...(args.display_name !== undefined ? { displayName: args.display_name } : {}),
      ...(args.headline !== undefined ? { headline: args.headline } : {}),
      ...(args.bio !== undefined ? { bio: args.bio } : {}),
      ...(args.accepts_questions !== undefined ? { acceptsQuestions: args.accepts_questions } : {}),
    },
  };
}
