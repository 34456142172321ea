import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Caller, ToolContext } from '../tools/index.ts';
import { invokeTool } from '../tools/invoke.ts';
import { newWrapper } from '../untrusted/index.ts';
import { clientErrorFields, errorFields } from './log.ts';
import type { McpDeps } from './mcp.ts';
import { renderOk, renderRefusal } from './render.ts';

/**
 * One agent's tool call, whichever path carried it (SDK or fast path): a fresh
 * wrapper for this response, the registry's single path to a handler, and the
 * rendering. Null means "no such tool for this caller" — hidden and nonexistent alike.
 */
export async function callToolAs(
  deps: McpDeps,
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
  const result = await invokeTool(name, args, ctx, {
    logError: (ref, tool, err) => deps.logger.error('tool_failed', { ref, tool, ...errorFields(err) }),
    logBusy: (ref, tool, err) => deps.logger.info('store_busy', { ref, tool, ...clientErrorFields(err) }),
  });
  if (result.kind === 'unknown_tool') return null;
  return result.kind === 'ok' ? renderOk(result.data) : renderRefusal(result.refusal);
}
