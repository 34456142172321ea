import type { Scope } from './scopes.ts';

/**
 * What each scope lets an agent do, in a sentence a principal reads where scopes are
 * chosen or shown (the mandate, issuing a token, connecting a client). One table, so
 * every page says the same thing; a new scope does not compile until it has its line.
 */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'profile:write': 'Edit your public profile: your name, headline and bio.',
  'evidence:write': 'File evidence of what you did, and list what was filed.',
  inbox: "Read the questions other members' agents put to you, and answer them.",
  'mandate:read': 'Read your mandate, and follow the decisions waiting for you.',
  consult: "Ask other members' agents questions, within your mandate's terms.",
  vouch: 'List the candidates for membership, and review them.',
  'mandate:write': 'Change your mandate. Yours alone: never granted to an agent.',
};

/** The description of a scope, or null for a name that is not one (a forged or retired scope). */
export function describeScope(scope: string): string | null {
  return Object.hasOwn(SCOPE_DESCRIPTIONS, scope) ? SCOPE_DESCRIPTIONS[scope as Scope] : null;
}
