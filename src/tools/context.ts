import type { Mandate } from '../core/mandate.ts';
import type { Permissions } from '../core/policy/index.ts';
import type { Registry } from '../core/registry.ts';
import type { PrincipalRef, Store, TokenRecord } from '../store/contract.ts';
import type { Wrapper } from '../untrusted/index.ts';

/** Who is calling, as resolved from the store on this very request. */
export type Caller =
  | { kind: 'anonymous'; permissions: Permissions }
  | {
      kind: 'agent';
      permissions: Permissions;
      principal: PrincipalRef;
      token: TokenRecord;
      mandate: Mandate;
    }
  /** The principal in person (console or admin CLI): the only caller that may use mandate:write. */
  | { kind: 'principal'; permissions: Permissions; principal: PrincipalRef; mandate: Mandate };

export interface ToolContext {
  store: Store;
  caller: Caller;
  /** This response's wrapper: the only way member text gets into a result. */
  wrapper: Wrapper;
  /** The registry, for tools that explain visibility (get_mandate). */
  registry: Registry<ToolContext>;
  now: () => Date;
  /**
   * Set when the request runs because its principal approved a decision: terms of the
   * mandate that would queue it are then already satisfied.
   */
  approvedDecisionId?: string;
}

/** The caller's principal, for tools that need one (never reached by anonymous callers: scopes gate them). */
export function principalOf(ctx: ToolContext): PrincipalRef {
  if (ctx.caller.kind === 'anonymous') throw new Error('tool with a scope reached by an anonymous caller');
  return ctx.caller.principal;
}
