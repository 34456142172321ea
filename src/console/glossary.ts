import { reasonForPrincipal } from '../admin/decisions.ts';
import type { RefusalCode } from '../core/refusals/catalogue.ts';
import type { Scope } from '../core/scopes.ts';
import type { Tier } from '../core/tiers.ts';
import { html, type Html } from './html.ts';

/**
 * The console's words for people: what the server calls a tool, a refusal code, a scope,
 * a role or a tier, said as a member reads it. Every page takes its words from here, so a
 * decision, an activity row and a token preview name the same act the same way; the
 * server's own names (tool ids, codes, HTTP statuses) are shown only inside `technical()`,
 * for those who want them.
 */

/** A request's arguments, read as text (the request is member text: a page escapes it all the same). */
export type Args = (name: string) => string | null;

/** One tool as a person reads it. */
export interface Act {
  /** What it lets an agent do, after "can": "ask other members questions". */
  readonly can: string;
  /** Whether it only reads (see) or acts in the member's name (do). */
  readonly kind: 'see' | 'do';
  /** A request of it, after "wants to": "ask @carol a question". */
  readonly wants: (a: Args) => string;
  /** What an agent did with it, after "Your agent": "asked @carol a question". */
  readonly did: (a: Args) => string;
  /** Its result as a sentence, when it ran. */
  readonly result: (r: Readonly<Record<string, unknown>>) => string;
}

const at = (a: Args, name: string, none: string) => {
  const v = a(name);
  return v ? `@${v.replace(/^@/, '')}` : none;
};
const ran = () => 'It ran.';

/** Every tool the club serves, in words. A tool missing here is named "a tool" and fails the glossary test. */
export const ACTS: Readonly<Record<string, Act>> = {
  club_info: {
    can: 'read what the club is and how it works',
    kind: 'see',
    wants: () => 'read what the club is',
    did: () => 'read what the club is',
    result: ran,
  },
  list_members: {
    can: 'list the members who accept questions',
    kind: 'see',
    wants: () => 'list the members',
    did: () => 'listed the members',
    result: ran,
  },
  get_profile: {
    can: "read members' public profiles",
    kind: 'see',
    wants: (a) => `read the profile of ${at(a, 'handle', 'a member')}`,
    did: (a) => `read the profile of ${at(a, 'handle', 'a member')}`,
    result: ran,
  },
  update_profile: {
    can: 'change your public profile: your name, headline and bio',
    kind: 'do',
    wants: () => 'change your public profile',
    did: () => 'changed your public profile',
    result: () => 'Your profile was changed.',
  },
  file_evidence: {
    can: 'file evidence of what you did, in your name',
    kind: 'do',
    wants: () => 'file evidence in your name',
    did: () => 'filed evidence in your name',
    result: () => 'The evidence was filed; it is on your Evidence page.',
  },
  list_evidence: {
    can: 'list the evidence filed in your name',
    kind: 'see',
    wants: () => 'list your evidence',
    did: () => 'listed your evidence',
    result: ran,
  },
  list_questions: {
    can: 'read the questions other members put to you',
    kind: 'see',
    wants: () => 'read the questions put to you',
    did: () => 'read the questions put to you',
    result: ran,
  },
  answer_question: {
    can: 'answer questions put to you, in your name',
    kind: 'do',
    wants: () => 'answer a question put to you',
    did: () => 'answered a question put to you',
    result: () => 'Your answer was sent.',
  },
  get_mandate: {
    can: 'read your mandate and what it allows',
    kind: 'see',
    wants: () => 'read your mandate',
    did: () => 'read your mandate',
    result: ran,
  },
  list_decisions: {
    can: 'follow the decisions waiting for you',
    kind: 'see',
    wants: () => 'read your decisions',
    did: () => 'read your decisions',
    result: ran,
  },
  ask_agent: {
    can: 'ask other members questions, in your name',
    kind: 'do',
    wants: (a) => `ask ${at(a, 'to', 'a member')} a question`,
    did: (a) => `asked ${at(a, 'to', 'a member')} a question`,
    result: (r) =>
      `The question was sent${typeof r['to'] === 'string' ? ` to @${r['to']}` : ''}; the answer will show on your Consultations page.`,
  },
  get_consultation: {
    can: 'read the answers to the questions it asked',
    kind: 'see',
    wants: () => 'read the answers to its questions',
    did: () => 'read the answers to its questions',
    result: ran,
  },
  list_candidates: {
    can: 'list the candidates for membership',
    kind: 'see',
    wants: () => 'list the candidates',
    did: () => 'listed the candidates',
    result: ran,
  },
  review_candidate: {
    can: 'review candidates for membership, in your name',
    kind: 'do',
    wants: (a) => `${reviewVerb(a('verdict'))} the candidate ${at(a, 'handle', 'a candidate')}`,
    did: (a) => `reviewed the candidate ${at(a, 'handle', 'a candidate')}`,
    result: (r) =>
      `Your review${typeof r['candidate'] === 'string' ? ` of @${r['candidate']}` : ''} was recorded${
        r['verdict'] === 'support'
          ? ': you support them'
          : r['verdict'] === 'oppose'
            ? ': you oppose them'
            : ''
      }.`,
  },
  set_mandate: {
    can: 'change your mandate (never granted to an agent)',
    kind: 'do',
    wants: () => 'change your mandate',
    did: () => 'tried to change your mandate',
    result: () => 'Your mandate was changed.',
  },
};

function reviewVerb(verdict: string | null): string {
  return verdict === 'support' ? 'support' : verdict === 'oppose' ? 'oppose' : 'review';
}

/** A tool in words, or null for a name the club does not serve (an agent may send any name). */
export function actOf(tool: string): Act | null {
  return Object.hasOwn(ACTS, tool) ? ACTS[tool]! : null;
}

/** What a refusal means for the member, and what they can do about it. */
export interface CodeWords {
  readonly said: string;
  readonly todo: string;
}

/** Why a request with this code waits, in the Decisions page's words, when no record gives figures. */
function waitsBecause(code: RefusalCode): string {
  return reasonForPrincipal({ reasonCode: code, reason: '', arguments: {} });
}

/**
 * The refusals an agent's call can meet, and the reasons a request waits or was closed,
 * said to the member whose agent it was. The catalogue's line for a code is written for
 * whoever maintains Warden; this is written for the member.
 */
export const CODES: Readonly<Partial<Record<RefusalCode, CodeWords>>> = {
  invalid_arguments: {
    said: 'Your agent sent the request in a form the club does not accept, so nothing was done.',
    todo: 'Nothing for you to do; the agent was told what was wrong.',
  },
  not_found: {
    said: 'Your agent named something that does not exist here (a member, a question, a record), so nothing was done.',
    todo: 'Nothing for you to do, unless the agent keeps guessing: then revoke its token.',
  },
  not_accepting_questions: {
    said: 'The member your agent asked does not take questions at the moment.',
    todo: 'Nothing to do; ask them another way.',
  },
  not_your_question: {
    said: 'Your agent tried to answer a question that was put to someone else.',
    todo: 'If it keeps doing so, revoke its token.',
  },
  already_answered: {
    said: 'Your agent tried to answer a question that already has your answer.',
    todo: 'Nothing to do.',
  },
  claim_without_artifact: {
    said: 'Your agent filed evidence said to come from a document or record, without saying which one, so it was not filed.',
    todo: 'Nothing to do; the agent was told to point to the record or file it as your own account.',
  },
  artifact_ref_malformed: {
    said: 'Your agent filed evidence pointing to a record no other member could check, so it was not filed.',
    todo: 'Nothing to do; the agent was told what a usable pointer looks like.',
  },
  self_target: {
    said: 'Your agent named you where another member was meant (asking or reviewing yourself).',
    todo: 'Nothing to do.',
  },
  not_a_candidate: {
    said: 'Your agent tried to review someone who is not a candidate for membership.',
    todo: 'Nothing to do.',
  },
  scope_not_grantable: {
    said: 'A permission was asked for that cannot be given to an agent.',
    todo: 'Choose among the permissions offered.',
  },
  unknown_scope: {
    said: 'A permission was named that the club does not have.',
    todo: 'Choose among the permissions offered.',
  },
  invalid_value: {
    said: 'A value was not one the club accepts.',
    todo: 'Correct it and try again.',
  },
  conflict: {
    said: 'It was done already (a review is given once, a name is taken once).',
    todo: 'Nothing to do.',
  },
  invalid_cursor: {
    said: 'Your agent asked for a page of a list that does not exist any more.',
    todo: 'Nothing to do; it starts the list again.',
  },
  internal_error: {
    said: 'The club failed to do it, through no fault of yours or your agent’s; nothing was written.',
    todo: 'Try again later; if it keeps failing, tell the club’s operator.',
  },
  suspended: {
    said: 'Your membership is suspended, so nothing is done for you or your agents.',
    todo: 'Contact the club.',
  },
  counterpart_not_in_mandate: {
    said: 'Your mandate does not let your agents ask this member without you.',
    todo: 'Approve or deny it under Decisions, or add the member in your mandate.',
  },
  daily_question_limit: {
    said: 'Your agents reached the number of questions a day your mandate allows.',
    todo: 'Approve or deny it under Decisions, or raise the number in your mandate.',
  },
  review_needs_approval: {
    said: 'Your mandate says reviews of candidates wait for your approval.',
    todo: 'Approve or deny it under Decisions.',
  },
  answer_counterpart_not_in_mandate: {
    said: 'Your mandate does not let your agents answer this member without you.',
    todo: 'Approve or deny it under Decisions, or add the member in your mandate.',
  },
  // Where the decision's own record has no figures to give, the sentence the Decisions page
  // shows is the one the member reads here too (its home is reasonForPrincipal).
  profile_change_needs_approval: {
    said: waitsBecause('profile_change_needs_approval'),
    todo: 'Approve or deny it under Decisions, or change what waits in your mandate.',
  },
  self_report_needs_approval: {
    said: waitsBecause('self_report_needs_approval'),
    todo: 'Approve or deny it under Decisions, or change what waits in your mandate.',
  },
  private_words: {
    said: waitsBecause('private_words'),
    todo: 'Approve it under Decisions if those words may go on, or deny it.',
  },
  denied_by_principal: {
    said: 'You denied the same request a short while ago, so your agent was refused without asking you again.',
    todo: 'Nothing to do; if you changed your mind, do it yourself, or shorten how long a denial holds in your mandate.',
  },
  stale_token_revoked: {
    said: 'The agent that asked lost its token (you revoked it) before you decided, so it did not run.',
    todo: 'If you still want it done, do it yourself.',
  },
  stale_token_expired: {
    said: 'The agent that asked lost its token (it expired) before you decided, so it did not run.',
    todo: 'If you still want it done, do it yourself.',
  },
  stale_tool_gone: {
    said: 'The club no longer offers what was asked for, so it did not run.',
    todo: 'Nothing to do.',
  },
  stale_scope_lapsed: {
    said: 'The agent no longer had the permission it needed when you decided, so it did not run.',
    todo: 'If you still want it done, do it yourself.',
  },
  rate_limited: {
    said: 'Your agent sent more requests than the club takes in a minute.',
    todo: 'Nothing to do; it may try again after a short wait.',
  },
};

/** The generic words for a code the glossary has no line for (the odd one a stored row holds). */
const UNKNOWN_CODE: CodeWords = {
  said: 'The club refused it.',
  todo: 'The details name the rule, for the club’s operator.',
};

export function codeWords(code: string | null): CodeWords {
  if (code === null) return UNKNOWN_CODE;
  return (Object.hasOwn(CODES, code) ? CODES[code as RefusalCode] : undefined) ?? UNKNOWN_CODE;
}

/** What one permission (a scope) lets an agent see and do, and whether it acts in the member's name. */
export interface ScopeWords {
  /** Its name as a person reads it. */
  readonly name: string;
  readonly see: string | null;
  readonly do: string | null;
  /** It acts in the member's name where other members see it. */
  readonly risky: boolean;
}

export const SCOPE_WORDS: Readonly<Record<Scope, ScopeWords>> = {
  'profile:write': {
    name: 'Edit your profile',
    see: null,
    do: 'change your public name, headline and bio',
    risky: true,
  },
  'evidence:write': {
    name: 'File evidence',
    see: 'see the evidence filed in your name',
    do: 'file evidence of what you did, in your name',
    risky: true,
  },
  inbox: {
    name: 'Your inbox',
    see: "read the questions other members' agents put to you",
    do: 'answer them in your name',
    risky: true,
  },
  'mandate:read': {
    name: 'Read your mandate',
    see: 'see your mandate and the decisions waiting for you',
    do: null,
    risky: false,
  },
  consult: {
    name: 'Ask members',
    see: 'read the answers it gets',
    do: 'ask other members questions in your name, within your mandate',
    risky: true,
  },
  vouch: {
    name: 'Review candidates',
    see: 'see the candidates for membership',
    do: 'review them in your name',
    risky: true,
  },
  'mandate:write': {
    name: 'Change your mandate',
    see: null,
    do: 'change your mandate: yours alone, never given to an agent',
    risky: true,
  },
};

/** A permission's words, or null for a name that is not one (a forged or retired scope). */
export function scopeWords(scope: string): ScopeWords | null {
  return Object.hasOwn(SCOPE_WORDS, scope) ? SCOPE_WORDS[scope as Scope] : null;
}

/** A principal's role as people name it. */
export function roleOf(p: { status: string; operator: boolean }): string {
  if (p.operator) return p.status === 'member' ? 'Operator' : `Operator (${statusWord(p.status)})`;
  return statusWord(p.status);
}

/** A principal's status as people name it. */
export function statusWord(status: string): string {
  return status === 'member' ? 'Member' : status === 'candidate' ? 'Candidate' : 'Suspended';
}

/** What a tier is, said where the word is first used. */
export const TIER =
  'Your tier is what the club lets any agent of yours reach at most, by your standing: a candidate’s agents reach less than a member’s.';

export const TIER_WORDS: Readonly<Record<Tier, string>> = {
  anonymous: 'none: an agent without a token sees only the public part of the club',
  candidate: 'candidate: your agents reach what a candidate may (no asking members, no reviews)',
  member: 'member: your agents may reach everything a member may',
};

/** What a mandate is, said where the word is first used. */
export const MANDATE =
  'Your mandate is your standing instructions to all your agents: what they may do at all, and what waits for your approval. You change it; they cannot.';

/**
 * The server's own names (a tool id, a code, an HTTP status), folded away for those who
 * want them: the one place a page shows them.
 */
export function technical(content: Html, summary = 'Details'): Html {
  return html`<details class="technical">
    <summary>${summary}</summary>
    ${content}
  </details>`;
}
