import type { OAuthOffer } from './endpoints.ts';
import type { Diagnosis, Rejection } from './endpoints.ts';
import type { Reference, Target } from './types.ts';

/**
 * Whether a configuration field holds the credential: the Authorization header over
 * HTTP (header names are case-insensitive), WARDEN_TOKEN over stdio.
 */
export function isCredentialField(target: Target, field: string): boolean {
  return target.kind === 'http'
    ? field.toLowerCase() === 'headers.authorization'
    : field === 'env.WARDEN_TOKEN';
}

export function sendsCredential(target: Target): boolean {
  if (target.kind === 'stdio') return Boolean(target.env['WARDEN_TOKEN']);
  return Object.keys(target.headers).some((h) => h.toLowerCase() === 'authorization');
}

/** Why a present credential was refused, in plain words, from the server's stable reason code. */
export function rejectionReason(r: Rejection, target: Target): string {
  const when = /\bon (\S+?)\.?$/.exec(r.description)?.[1];
  switch (r.reason) {
    case 'revoked':
      return when ? `the token was revoked on ${when}` : 'the token was revoked';
    case 'expired':
      return when ? `the token expired on ${when}` : 'the token has expired';
    case 'unknown':
      return r.emptyStore
        ? 'the token is not known to this server, whose store has no principals at all: the server is most likely running on the wrong store (a new, empty one, e.g. started from another directory or with another --db), not the token that is wrong'
        : 'the token is not known to this server (mistyped, or issued by another Warden)';
    case 'suspended':
      return "the token's principal is suspended: every one of their tokens is refused until the club reinstates them";
    case 'malformed':
      return `${target.kind === 'http' ? 'the Authorization header' : 'WARDEN_TOKEN'} is malformed: ${
        lowerFirst(r.description) || 'it is not a Warden agent token (wdn_…)'
      }`;
    default:
      return r.description ? lowerFirst(r.description) : `the credential was refused (${r.reason})`;
  }
}

/** Why a caller is anonymous: what this configuration (or command line) did or did not send. */
export function anonymousReason(
  target: Target,
  references: Reference[],
  oauth: OAuthOffer | null = null,
): string {
  const blocked = references.filter((r) => isCredentialField(target, r.field) && !r.resolved && !r.literal);
  if (blocked.length > 0) {
    const what = blocked.map(referenceWords).join(', ');
    return target.kind === 'http'
      ? `the Authorization header was not sent: it uses ${what}`
      : `WARDEN_TOKEN was left out of the environment: it uses ${what}`;
  }
  if (target.kind === 'stdio')
    return target.source ? "this entry's env sets no WARDEN_TOKEN" : 'no WARDEN_TOKEN was given';
  if (oauth)
    return `${target.source ? 'this configuration sends no Authorization header' : 'no Authorization header was sent'}: the client will sign in through OAuth (authorization server ${oauth.authorizationServers.join(', ')}) when it calls a tool beyond the anonymous tier, and its principal picks among the scopes offered: ${oauth.scopes.join(', ')}`;
  return target.source
    ? 'this configuration sends no Authorization header'
    : 'no Authorization header was sent (give --token or --header)';
}

/** A reference in words: what it is and why the doctor could or could not fill it in. */
export function referenceWords(r: Reference): string {
  if (r.literal) return `${r.text}, which this client does not fill in: it sends those characters as written`;
  if (r.kind === 'input') {
    const prompt = r.description ? ` ("${r.description}")` : '';
    return r.resolved
      ? `${r.text}, filled in from --input ${r.name}`
      : `${r.text}, which VS Code asks for${prompt} when it starts the server; give it with --input ${r.name}=…`;
  }
  if (r.kind === 'env' && r.defaulted)
    return `${r.text}, filled in from its default in the configuration: ${r.name} is not set in this environment (the client uses the default too only where ${r.name} is unset)`;
  if (r.kind === 'env')
    return r.resolved
      ? `${r.text}, filled in from the environment (the client must see the same variable)`
      : `${r.text}, but ${r.name} is not set in this environment`;
  return r.resolved ? `${r.text}` : `${r.text}, which only the editor can fill in`;
}

const MISSING_PHRASE: Record<string, (tier: string) => string> = {
  above_tier: (tier) => `it is above the ${tier} tier`,
  not_in_token: () => 'the token was not issued with it',
  not_in_mandate: () => "your principal's mandate does not grant it",
};

export interface MissingScope {
  scope: string;
  missing: string[];
  tools: string[];
}

/** Tools the caller does not see, grouped by the scope they need (mandate:write is never an agent's). */
export function missingScopes(d: Diagnosis): MissingScope[] {
  const byScope = new Map<string, MissingScope>();
  for (const t of d.tools ?? []) {
    if (t.visible || t.scope === null || t.missing.includes('principal_only')) continue;
    const entry = byScope.get(t.scope) ?? { scope: t.scope, missing: t.missing, tools: [] };
    entry.tools.push(t.name);
    byScope.set(t.scope, entry);
  }
  return [...byScope.values()];
}

/** "`consult` is missing because your principal's mandate does not grant it (hides ask_agent, …)". */
export function missingReason(m: MissingScope, tier: string): string {
  const phrases = m.missing.map((code) => MISSING_PHRASE[code]?.(tier) ?? code);
  return `\`${m.scope}\` is missing because ${phrases.join(' and ')} (hides ${m.tools.join(', ')})`;
}

function lowerFirst(text: string): string {
  const t = text.trim().replace(/\.$/, '');
  return t.charAt(0).toLowerCase() + t.slice(1);
}

/** References this client sends as written inside the credential: why a token can look malformed. */
export function literalCredential(target: Target, references: Reference[]): Reference[] {
  return references.filter((r) => r.literal && isCredentialField(target, r.field));
}
