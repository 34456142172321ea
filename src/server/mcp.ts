import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { Registry } from '../core/registry.ts';
import { instructionsFor, SKILLS_EXTENSION_ID, type Reader } from '../skill/index.ts';
import type { Store } from '../store/contract.ts';
import type { Caller, ToolContext } from '../tools/index.ts';
import { callToolAs } from './call.ts';
import type { Logger } from './log.ts';
import { unknownToolMessage } from './render.ts';
import { serveSkill } from './skill.ts';

export interface McpDeps {
  store: Store;
  registry: Registry<ToolContext>;
  logger: Logger;
  now?: () => Date;
  version: string;
}

/** Resolves the caller of the request being served, from the store, every time it is called. */
export type ResolveCaller = () => Promise<Caller>;

const SERVER_NAME = 'warden';

/**
 * Said for a tools/list cursor, which this server never issues (the caller's text is not
 * echoed). MCP asks for −32602 on an invalid cursor; answering the whole list instead
 * let a client that paged with a stale or forged cursor believe it had a page.
 */
const INVALID_LIST_CURSOR =
  'Invalid params: this server lists every tool in one page and issues no tools/list cursor, so this cursor is not one of its own. Call tools/list without params.cursor.';

const PRIVATE = { cacheScope: 'private', ttlMs: 0 } as const;

/**
 * Builds the protocol instance for one serving unit (one HTTP request, or one stdio
 * connection). Deliberately the low-level Server: tool descriptors and validators are
 * compiled once in the registry, so all that is made here is closures over the
 * caller's view. The caller is resolved on each request, never stored; `current` is the
 * caller as last resolved, for what the protocol fixes when the unit starts (the
 * `instructions`, which name only tools that caller sees).
 */
export function buildMcpServer(deps: McpDeps, resolveCaller: ResolveCaller, current: Caller): Server {
  const visible = (caller: Caller): Reader => ({
    tools: deps.registry.list(caller.permissions.effective).map((t) => t.name),
    principal: caller.kind !== 'anonymous',
  });
  const server = new Server(
    { name: SERVER_NAME, version: deps.version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        extensions: { [SKILLS_EXTENSION_ID]: {} },
      },
      instructions: instructionsFor(visible(current)),
      // What is listed and read varies with the authorization on the request: never shared.
      cacheHints: {
        'tools/list': PRIVATE,
        'resources/list': PRIVATE,
        'resources/templates/list': PRIVATE,
        'resources/read': PRIVATE,
      },
    },
  );
  serveSkill(server, async () => visible(await resolveCaller()));

  server.setRequestHandler('tools/list', async (request) => {
    // One page is the whole list, so no cursor was ever issued: any cursor is invalid.
    if (request.params?.cursor !== undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, INVALID_LIST_CURSOR);
    const caller = await resolveCaller();
    return { tools: deps.registry.list(caller.permissions.effective) as never };
  });

  server.setRequestHandler('tools/call', async (request) => {
    const result = await callToolAs(
      deps,
      await resolveCaller(),
      request.params.name,
      request.params.arguments,
    );
    // Word for word what the SDK answers for a name it never registered.
    if (!result)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(request.params.name));
    return result;
  });

  return server;
}
