import type { Diagnosis, Rejection } from './endpoints.ts';
import { isCredentialField, type MissingScope } from './reasons.ts';
import type { Reference, Target, Tier } from './types.ts';

/** Every scope an agent of a member can hold (the member tier's ceiling). */
const MEMBER_SCOPES = ['profile:write', 'evidence:write', 'inbox', 'mandate:read', 'consult', 'vouch'];
const ISSUE = `warden admin token issue HANDLE --scopes ${MEMBER_SCOPES.join(',')}`;

/** Where the credential lives for this target, in the words of whoever edits it. */
function whereCredentialGoes(target: Target): string {
  if (target.kind === 'stdio') return target.source ? "this entry's env as WARDEN_TOKEN" : 'WARDEN_TOKEN';
  return target.source ? "this entry's headers as Authorization: Bearer …" : '--token';
}

/** One line that fixes a refused credential. */
export function rejectionFix(r: Rejection, target: Target): string {
  switch (r.reason) {
    case 'suspended':
      return 'only the club can reinstate the principal (warden admin principal admit HANDLE); a new token will not help';
    case 'malformed':
      return target.kind === 'http'
        ? 'send the header exactly as "Authorization: Bearer wdn_…", with a Warden agent token after the word Bearer'
        : 'set WARDEN_TOKEN to a Warden agent token (wdn_…)';
    case 'unknown':
      if (r.emptyStore)
        return target.kind === 'stdio'
          ? `point the server at the store the token was issued from: add WARDEN_DB=/absolute/path/to/warden.db (or --db) to ${target.source ? "this entry's env" : 'its environment'}; a new token would only hide the mistake`
          : 'start the server on the store the token was issued from (warden serve --db /absolute/path/to/warden.db, or WARDEN_DB); a new token would only hide the mistake';
      return `issue a new token (${ISSUE}) and put it in ${whereCredentialGoes(target)}`;
    default:
      return `issue a new token (${ISSUE}) and put it in ${whereCredentialGoes(target)}`;
  }
}

/** One line that gets an anonymous caller a token, or fills the reference that kept it out. */
export function anonymousFix(target: Target, references: Reference[]): string {
  const blocked = references.find((r) => isCredentialField(target, r.field) && !r.resolved && !r.literal);
  if (blocked?.kind === 'input')
    return `rerun with --input ${blocked.name}=wdn_… to check the token VS Code would send`;
  if (blocked?.kind === 'env') return `set ${blocked.name} in the environment the client starts from`;
  if (target.kind === 'stdio')
    return `add WARDEN_TOKEN to ${target.source ? "this entry's env" : 'the environment'}, with a token from: ${ISSUE}`;
  return target.source
    ? `add "headers": { "Authorization": "Bearer wdn_…" } to this entry, with a token from: ${ISSUE}`
    : `rerun with --token wdn_… (a token from: ${ISSUE})`;
}

/**
 * One line that closes the gap between what a valid token gets and what is wanted:
 * admission for a tier, the mandate for scopes it withholds, a new token for scopes
 * the token was issued without.
 */
export function gapFix(d: Diagnosis, missing: MissingScope[], expect: Tier | null): string | null {
  const handle = d.principal?.handle ?? 'HANDLE';
  if (expect === 'member' && d.tier === 'candidate') return admissionFix(d, handle);
  const reachable = missing.filter((m) => !m.missing.includes('above_tier'));
  const steps: string[] = [];
  const forMandate = reachable.filter((m) => m.missing.includes('not_in_mandate')).map((m) => m.scope);
  if (forMandate.length > 0) {
    const scopes = [...new Set([...(d.scopes?.mandate ?? []), ...forMandate])].join(',');
    steps.push(
      `${handle} widens the mandate to grant ${forMandate.join(', ')} (console, or: warden admin mandate set ${handle} --scopes ${scopes})`,
    );
  }
  const forToken = reachable.filter((m) => m.missing.includes('not_in_token')).map((m) => m.scope);
  if (forToken.length > 0) {
    const scopes = [...new Set([...(d.scopes?.token ?? []), ...forToken])].join(',');
    const revoke = d.token ? `, then revoke ${d.token.id}` : '';
    steps.push(
      `issue a token that carries ${forToken.join(', ')}: warden admin token issue ${handle} --scopes ${scopes}${revoke}`,
    );
  }
  return steps.length > 0 ? steps.join('; ') : null;
}

/**
 * A candidate who should be a member needs two steps, not one: admission (the
 * club's act), and then a token carrying the member scopes — a token issued to a
 * candidate holds only the candidate's scopes, so after admission it still sees
 * the candidate's tools. The second step is named only when the token lacks them.
 */
function admissionFix(d: Diagnosis, handle: string): string {
  const admit = `1) only the club can admit ${handle} as a member: warden admin principal admit ${handle}`;
  const tokenScopes = d.scopes?.token ?? [];
  const lacking = MEMBER_SCOPES.filter((s) => !tokenScopes.includes(s));
  if (d.scopes && lacking.length === 0) return admit;
  const revoke = d.token ? `, and revoke this one: warden admin token revoke ${d.token.id}` : '';
  return `${admit}; 2) then issue a token with the member scopes, since this one was issued with a candidate's and would still see ${
    d.visible ?? 'the same'
  } tools after admission: warden admin token issue ${handle} --scopes ${MEMBER_SCOPES.join(',')}${revoke}`;
}
