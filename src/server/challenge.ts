import { stepUpScopes } from '../core/policy/index.ts';
import type { Registry } from '../core/registry.ts';
import { AGENT_SCOPES, type Scope } from '../core/scopes.ts';
import type { Caller, ToolContext } from '../tools/index.ts';

/** The name of a single JSON-RPC tools/call request, or null for anything else. */
export function calledToolName(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const m = message as Record<string, unknown>;
  if (m['method'] !== 'tools/call') return null;
  const params = m['params'] as Record<string, unknown> | undefined;
  const name = params?.['name'];
  return typeof name === 'string' ? name : null;
}

export type Challenge =
  /**
   * `required`: where a credential is needed without one: the whole server (serve
   * --require-sign-in), or the sign-in address, /mcp/sign-in, that OAuth hosts are given.
   */
  | { kind: 'sign_in'; scopes: readonly Scope[]; required?: 'server' | 'address' }
  | { kind: 'step_up'; scopes: readonly Scope[] };

/**
 * Whether a tools/call for a name outside the caller's view should ask for authorization
 * instead of answering "not found", and for what. The answer depends only on the caller,
 * never on the name: a hidden tool and a name that never existed get the same answer, so
 * no challenge reveals a tool (refusal by absence holds).
 *
 * - anonymous, on a server that is its own authorization server: 401, sign in (lazy
 *   authentication); the principal picks the scopes on the consent page.
 * - an OAuth connection whose grant is narrower than what the principal's tier and mandate
 *   allow now: 403 insufficient_scope naming the scopes they could still grant (step-up;
 *   the rule is `stepUpScopes` of core/policy, the one home of what may be granted).
 * - everything else (static tokens, a grant that already has all it could): null.
 */
export function challengeFor(
  registry: Registry<ToolContext>,
  caller: Caller,
  name: string,
): Challenge | null {
  if (registry.find(name, caller.permissions.effective)) return null;
  if (caller.kind === 'anonymous') return { kind: 'sign_in', scopes: AGENT_SCOPES };
  if (caller.kind !== 'agent' || caller.token.origin !== 'oauth') return null;
  const more = stepUpScopes(caller.permissions, caller.mandate.scopes);
  return more.length ? { kind: 'step_up', scopes: more } : null;
}
