/**
 * What an agent may have, in one place: the scopes a token may be issued with
 * (issuable), those a principal may grant a client on the consent page (grantable),
 * what a caller has on this request (effective), why a scope or a tool is missing,
 * and whether a queued request's authority still holds (staleness). Pure: callers
 * pass what they read from the store on this very request.
 */
export {
  anonymousPermissions,
  computePermissions,
  principalPermissions,
  type MissingReason,
  type Permissions,
  type ScopeGrant,
} from './effective.ts';
export {
  consentedScopes,
  consentOffer,
  grantableScopes,
  stepUpScopes,
  type ConsentOffer,
} from './grantable.ts';
export {
  evaluateIssuable,
  issuableScopes,
  type IssueRefusalCode,
  type IssueRequest,
  type IssueVerdict,
} from './issuable.ts';
export { evaluateStaleness, type AskedUnder, type StaleCode, type Staleness } from './staleness.ts';
export { explainTools, toolsSeen, type ToolCatalog, type ToolExplanation } from './tools.ts';
export { explainScopes, MISSING_REASON_TEXT, whyMissing, type ScopeExplanation } from './why.ts';
