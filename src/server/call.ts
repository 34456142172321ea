import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Caller, ToolContext } from '../tools/index.ts';
import { invokeTool } from '../tools/invoke.ts';
import { newWrapper } from '../untrusted/index.ts';
import { activityOf } from './activity.ts';
import { clientErrorFields, errorFields, type Logger } from './log.ts';
import { renderOk, renderRefusal } from './render.ts';

/** What one call needs of its serving unit: McpDeps has it all, and mcp.ts imports this module. */
type CallDeps = Pick<ToolContext, 'store' | 'registry'> & { logger: Logger; now?: () => Date };

/**
 * One agent's tool call, whichever path carried it (SDK or fast path): a fresh
 * wrapper for this response, the registry's single path to a handler, and the
 * rendering. Null means "no such tool for this caller" — hidden and nonexistent alike.
 */
export async function callToolAs(
  deps: CallDeps,
  caller: Caller,
  name: string,
  args: unknown,
): Promise<CallToolResult | null> {
  const ctx: ToolContext = {
    store: deps.store,
    caller,
    wrapper: newWrapper(),
    registry: deps.registry,
    now: deps.now ?? (() => new Date()),
  };
  const at = ctx.now();
  const result = await invokeTool(name, args, ctx, {
    logError: (ref, tool, err) => deps.logger.error('tool_failed', { ref, tool, ...errorFields(err) }),
    logBusy: (ref, tool, err) => deps.logger.info('store_busy', { ref, tool, ...clientErrorFields(err) }),
  });
  // Every call made with a principal's token goes on their record, whatever it came to,
  // before its answer leaves: an acknowledged call is on the record after a crash. Rows
  // of calls answered together are committed together (store/activity.ts).
  const entry = activityOf(caller, name, args, result, at, deps.registry);
  if (entry) {
    try {
      await deps.store.recordActivity([entry]);
    } catch (err) {
      // The act is done; its answer still goes, and the lost row is logged for the operator.
      deps.logger.error('activity_not_recorded', errorFields(err));
    }
  }
  if (result.kind === 'unknown_tool') return null;
  return result.kind === 'ok' ? renderOk(result.data) : renderRefusal(result.refusal);
}
