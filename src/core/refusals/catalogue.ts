import { GATE_REFUSALS } from '@warden-mcp/gate/refusals';

/**
 * Who gives a refusal: a tool (read by a model), the admin layer (console or CLI), the console
 * itself (before any page runs), a queued or closed decision, the HTTP edge of /mcp, or the
 * gate's proxy. A code shared by several families means the same thing in each.
 */
export type RefusalFamily = 'tool' | 'admin' | 'console' | 'decision' | 'http' | 'gate';

/** One code: where it is given and, in one line, when. */
export interface RefusalEntry {
  readonly families: readonly RefusalFamily[];
  readonly doc: string;
}

/**
 * Every refusal code Warden gives, in one place. A refusal shape (a tool result, an
 * AdminRefusal, a console page, a decision's record, an HTTP error body) takes its code
 * from here, so a code cannot be invented at a call site; test/core/refusals.test.ts checks
 * that each one is given somewhere, documented, and asserted by some test. Codes are a
 * contract with clients and never change once shipped.
 *
 * Left out on purpose: the OAuth error codes of src/oauth (`invalid_request`,
 * `invalid_grant`, `access_denied`, …). They are the wire vocabulary of RFC 6749/7591,
 * produced and checked by oidc-provider; clients branch on them as the standard says, and
 * we neither choose nor rename them.
 */
const WARDEN_REFUSALS = {
  // Tools: read by the model as {code, reason, next}.
  invalid_arguments: {
    families: ['tool'],
    doc: "The arguments do not match the tool's input schema (or hold half a UTF-16 pair); the handler never ran.",
  },
  not_found: {
    families: ['tool', 'admin', 'console', 'http'],
    doc: 'What was named (a handle, an id, a path) does not exist, or is not the caller’s to see: one answer for both.',
  },
  not_accepting_questions: {
    families: ['tool'],
    doc: 'The member asked has closed their inbox to questions.',
  },
  not_your_question: {
    families: ['tool'],
    doc: 'The question was put to another principal; only its addressee answers it.',
  },
  already_answered: {
    families: ['tool'],
    doc: 'The question has its answer already; a question is answered once.',
  },
  claim_without_artifact: {
    families: ['tool'],
    doc: 'Evidence said to come from an artifact (commit, document, calendar) names none: self-report in costume.',
  },
  artifact_ref_malformed: {
    families: ['tool'],
    doc: 'The artifact reference is not of its origin’s form, or points where no other member could check it (plain http, loopback, private, link-local or metadata addresses).',
  },
  denied_by_principal: {
    families: ['tool'],
    doc: 'The principal denied the same request (same act, same counterpart) within their denial window; the refusal cites the decision and its note, and nothing is queued again.',
  },
  self_target: {
    families: ['tool'],
    doc: 'The caller’s own principal was named where another member is meant (asking or reviewing oneself).',
  },
  not_a_candidate: {
    families: ['tool'],
    doc: 'The handle reviewed is not a candidate under evaluation.',
  },
  scope_not_grantable: {
    families: ['tool', 'admin'],
    doc: 'The scope is never given to an agent (mandate:write), whoever asks for it.',
  },
  unknown_scope: {
    families: ['tool', 'admin'],
    doc: 'A scope name that does not exist.',
  },
  invalid_value: {
    families: ['tool', 'admin', 'console'],
    doc: 'A value of the right type that is still not acceptable (a duration out of range, a manual claim with a reference, an unknown form action).',
  },
  conflict: {
    families: ['tool', 'admin', 'console'],
    doc: 'The change clashes with what holds now (reviewed already, revoked already, a passkey registered twice); nothing changed.',
  },
  invalid_cursor: {
    families: ['tool'],
    doc: 'A paging cursor this server did not issue for this caller and listing, or one that has expired.',
  },
  internal_error: {
    families: ['tool', 'http'],
    doc: 'A fault of the server, or its store busy; the answer carries a reference, the details stay in the log, nothing of the call was written.',
  },

  // Admin: the console and the CLI, acting for a person.
  above_tier: {
    families: ['admin'],
    doc: 'The scopes asked for are above the ceiling of the principal’s tier.',
  },
  already_decided: {
    families: ['admin'],
    doc: 'The decision was approved or denied already, perhaps a moment ago by another request.',
  },
  not_your_decision: {
    families: ['admin'],
    doc: 'The decision belongs to another principal.',
  },
  not_stale: {
    families: ['admin'],
    doc: 'Only a stale decision is re-issued; this one is pending or decided.',
  },
  stale: {
    families: ['admin'],
    doc: 'The decision was closed as stale (its authority lapsed) and never ran; only a new act in person can do it now.',
  },
  invalid_handle: {
    families: ['admin'],
    doc: 'A handle outside the pattern: 2 to 32 lowercase letters, digits, _ or -, starting with a letter or digit.',
  },
  suspended: {
    families: ['admin', 'console', 'http'],
    doc: 'The principal is suspended: nothing is issued or done for them, the console is closed to them, and their agents’ tokens are refused.',
  },

  // The console, before any page runs, and its sign-in.
  cross_site_request: {
    families: ['console'],
    doc: 'A state-changing request whose Origin is not the console’s own.',
  },
  stale_form: {
    families: ['console'],
    doc: 'A form whose CSRF token is from another session or has expired.',
  },
  agent_token_at_console: {
    families: ['console'],
    doc: 'An agent token (Authorization header) sent to the console, which is for people only.',
  },
  form_too_large: {
    families: ['console'],
    doc: 'A form body over the console’s 64 KB bound.',
  },
  too_many_attempts: {
    families: ['console'],
    doc: 'Too many sign-in attempts from one address in a minute.',
  },
  link_unknown: {
    families: ['console'],
    doc: 'A sign-in link this club never made.',
  },
  link_used: {
    families: ['console'],
    doc: 'A sign-in link used already; each works once.',
  },
  link_expired: {
    families: ['console'],
    doc: 'A sign-in link past its lifetime.',
  },
  passkey_unknown: {
    families: ['console'],
    doc: 'A passkey not registered with the club (perhaps removed).',
  },
  passkey_rejected: {
    families: ['console'],
    doc: 'A passkey response that did not verify (wrong challenge, origin or signature).',
  },
  authorization_expired: {
    families: ['console'],
    doc: 'An OAuth consent page whose authorization request expired, was answered already, or belongs to another browser.',
  },

  // Decisions: why a request went to the principal, and why a queued one was closed unrun.
  counterpart_not_in_mandate: {
    families: ['decision'],
    doc: 'Queued: the member to consult is not among the counterparts the mandate allows without asking.',
  },
  daily_question_limit: {
    families: ['decision'],
    doc: 'Queued: the mandate’s daily question limit is reached (UTC day).',
  },
  review_needs_approval: {
    families: ['decision'],
    doc: 'Queued: the mandate says candidate reviews go out only with the principal’s approval.',
  },
  private_words: {
    families: ['decision'],
    doc: 'Queued: the text an agent sends out carries a passage of 12 or more words another member wrote privately to the principal (their question, their answer).',
  },
  answer_counterpart_not_in_mandate: {
    families: ['decision'],
    doc: 'Queued: the asker is not among those the mandate lets agents answer without asking (by default, whom they may consult).',
  },
  profile_change_needs_approval: {
    families: ['decision'],
    doc: 'Queued: the mandate says this profile change (the inbox opened or closed, a new display name, or headline and bio if so set) waits for the principal.',
  },
  self_report_needs_approval: {
    families: ['decision'],
    doc: 'Queued: the mandate says self-reported evidence (origin manual) is filed only with the principal’s approval.',
  },
  stale_token_revoked: {
    families: ['decision'],
    doc: 'Closed unrun: the token whose agent asked was revoked.',
  },
  stale_token_expired: {
    families: ['decision'],
    doc: 'Closed unrun: the token whose agent asked has expired.',
  },
  stale_tool_gone: {
    families: ['decision'],
    doc: 'Closed unrun: the tool it asked for no longer exists.',
  },
  stale_scope_lapsed: {
    families: ['decision'],
    doc: 'Closed unrun: the tool’s scope no longer holds in token ∩ mandate ∩ tier.',
  },

  // The HTTP edge of /mcp: `error` of a JSON body, and the `reason` that details it.
  forbidden_host: {
    families: ['http'],
    doc: 'A Host header this server does not serve (DNS rebinding guard).',
  },
  forbidden_origin: {
    families: ['http'],
    doc: 'A browser Origin that is not allowed to call /mcp.',
  },
  method_not_allowed: {
    families: ['http'],
    doc: 'An HTTP method the path does not answer; the Allow header lists those it does.',
  },
  invalid_token: {
    families: ['http'],
    doc: 'No usable credential (RFC 6750): its `reason` says which (sign_in_required, malformed, unknown, expired, revoked, suspended, wrong_audience).',
  },
  insufficient_scope: {
    families: ['http'],
    doc: 'An OAuth connection granted fewer scopes than its principal may grant: step up by asking for more (RFC 6750).',
  },
  sign_in_required: {
    families: ['http'],
    doc: 'Reason of invalid_token: no credential, where the tool or the server needs one.',
  },
  malformed: {
    families: ['http'],
    doc: 'Reason of invalid_token: the Authorization header is not a bearer token of a form we issue.',
  },
  unknown: {
    families: ['http'],
    doc: 'Reason of invalid_token: a well-formed token this club never issued (or whose record is gone).',
  },
  expired: {
    families: ['http'],
    doc: 'Reason of invalid_token: the token is past its expiry.',
  },
  revoked: {
    families: ['http'],
    doc: 'Reason of invalid_token: the token was revoked.',
  },
  wrong_audience: {
    families: ['http'],
    doc: 'Reason of invalid_token: an OAuth access token issued for another resource than this /mcp.',
  },
  rate_limited: {
    families: ['http'],
    doc: 'Reason of a JSON-RPC -32000: over the request rate of this token or address (each message of a batch counts), or over the calls a token may put on the Activity record in a day; the wait is given.',
  },
  batch_too_large: {
    families: ['http'],
    doc: 'Reason of a JSON-RPC -32600 (HTTP 413): a batch of more messages than one POST may carry; nothing in it ran.',
  },
} as const satisfies Record<string, RefusalEntry>;

type GateEntries = {
  readonly [K in keyof typeof GATE_REFUSALS]: { readonly families: readonly ['gate']; readonly doc: string };
};

/** The gate's proxy refusals, from the gate's own catalogue: Warden lists them, never redefines them. */
function gateEntries(): GateEntries {
  const entries: Partial<Record<keyof typeof GATE_REFUSALS, RefusalEntry>> = {};
  for (const [code, { doc }] of Object.entries(GATE_REFUSALS))
    entries[code as keyof typeof GATE_REFUSALS] = { families: ['gate'], doc };
  return entries as GateEntries;
}

const ALL = { ...WARDEN_REFUSALS, ...gateEntries() } as const;

/** A refusal code: only what the catalogue lists type-checks. */
export type RefusalCode = keyof typeof ALL;

/**
 * The codes of one family, derived from the catalogue's `families`: a code from another
 * family does not compile where this one is asked for (`refuse()` of the tools takes only
 * tool codes, an AdminRefusal only admin codes). Adding a family to an entry is all it takes.
 */
export type RefusalCodeOf<F extends RefusalFamily> = {
  readonly [K in RefusalCode]: F extends (typeof ALL)[K]['families'][number] ? K : never;
}[RefusalCode];

export type ToolRefusalCode = RefusalCodeOf<'tool'>;
export type AdminRefusalCode = RefusalCodeOf<'admin'>;
export type ConsoleRefusalCode = RefusalCodeOf<'console'>;
export type DecisionRefusalCode = RefusalCodeOf<'decision'>;
export type HttpRefusalCode = RefusalCodeOf<'http'>;

/** Every refusal code, Warden's and the gate's, with its families and its one-line doc. */
export const REFUSALS: Readonly<Record<RefusalCode, RefusalEntry>> = ALL;
