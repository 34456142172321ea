import { principalPermissions } from '../core/policy/index.ts';
import type { Registry } from '../core/registry.ts';
import { tierOfStatus } from '../core/tiers.ts';
import type { PrincipalRecord, Store } from '../store/contract.ts';
import type { ToolContext } from '../tools/index.ts';
import { invokeTool, type Invocation } from '../tools/invoke.ts';
import { newWrapper } from '../untrusted/index.ts';
import { AdminRefusal } from './errors.ts';

export interface AdminDeps {
  store: Store;
  registry: Registry<ToolContext>;
  logError?: (ref: string, tool: string, err: unknown) => void;
  now?: () => Date;
}

/**
 * Runs a tool as the principal in person, through the same registry path agents
 * use (validation, handler, output check). This is how set_mandate runs, and how
 * an approved decision executes "under the principal's approval".
 */
export async function runAsPrincipal(
  deps: AdminDeps,
  principal: PrincipalRecord,
  tool: string,
  args: unknown,
  approvedDecisionId?: string,
): Promise<Invocation> {
  const tier = tierOfStatus(principal.status);
  if (tier === null) throw new AdminRefusal('suspended', `${principal.handle} is suspended.`);
  const ctx: ToolContext = {
    store: deps.store,
    caller: {
      kind: 'principal',
      permissions: principalPermissions(tier),
      principal,
      mandate: await deps.store.getMandate(principal.id),
    },
    wrapper: newWrapper(),
    registry: deps.registry,
    now: deps.now ?? (() => new Date()),
    ...(approvedDecisionId ? { approvedDecisionId } : {}),
  };
  return invokeTool(tool, args, ctx, { logError: deps.logError ?? (() => {}) });
}
