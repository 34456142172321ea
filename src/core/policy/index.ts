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
} from './effective.ts';
export {
  consentedScopes,
  consentOffer,
  grantableScopes,
  stepUpScopes,
  type ConsentOffer,
} from './grantable.ts';
export { evaluateIssuable, issuableScopes, type IssueRequest } from './issuable.ts';
export { evaluateStaleness, type AskedUnder, type StaleCode } from './staleness.ts';
export { explainTools, toolsSeen, type ToolCatalog } from './tools.ts';
export { explainScopes, MISSING_REASON_TEXT, whyMissing } from './why.ts';
