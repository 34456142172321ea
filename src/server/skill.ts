import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { skillFor, SKILL_URI, type Reader } from '../skill/index.ts';
import { echo } from '../untrusted/index.ts';

/** The tools the caller of the request being served sees now (read fresh for every request). */
export type VisibleTools = () => Promise<Reader>;

type Params = Record<string, unknown>;

/**
 * A request's params as the Skills extension defines them: an object whose named string
 * fields are strings (`required` ones present). Anything else is −32602 before a handler runs.
 */
function params(strings: readonly string[], required: readonly string[] = []): StandardSchemaV1<Params> {
  return {
    '~standard': {
      version: 1,
      vendor: 'warden',
      validate(value) {
        const v = (value ?? {}) as Params;
        if (typeof v !== 'object' || Array.isArray(v))
          return { issues: [{ message: 'params must be an object' }] };
        for (const name of strings)
          if (v[name] !== undefined && typeof v[name] !== 'string')
            return { issues: [{ message: `${name} must be a string`, path: [name] }] };
        for (const name of required)
          if (v[name] === undefined) return { issues: [{ message: `${name} is required`, path: [name] }] };
        return { value: v };
      },
    },
  };
}

/** This server issues no cursor for these lists (each is one page), so any cursor is not its own. */
function noCursor(p: Params, method: string): void {
  if (p['cursor'] !== undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params: ${method} is one page on this server and issues no cursor. Call it without params.cursor.`,
    );
}

/**
 * Serves the club's skill (the MCP Skills extension, SEP-2640) on one protocol instance:
 * `skills/list` and `skills/get` with the manifest of every file, and the files as ordinary
 * resources, so a client of either era can read them. What is served is rendered for the tools
 * the caller sees at this request: a file, or a part of one, about a tool the caller cannot
 * use is absent, exactly as the tool is. The skill methods carry the 2026-07-28 caching fields
 * (private: the skill varies by caller); the SDK adds them itself to the resources methods.
 */
export function serveSkill(server: Server, visibleTools: VisibleTools): void {
  const served = async () => skillFor(await visibleTools());
  const cache = () =>
    (server.getNegotiatedProtocolVersion() ?? '') >= '2026'
      ? { ttlMs: 0, cacheScope: 'private' as const }
      : {};

  server.setRequestHandler('skills/list', { params: params(['cursor']) }, async (p) => {
    noCursor(p, 'skills/list');
    return { skills: [(await served()).entry], ...cache() };
  });
  server.setRequestHandler('skills/get', { params: params(['uri'], ['uri']) }, async (p) => {
    const { entry } = await served();
    if (p['uri'] !== SKILL_URI)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No skill is served at ${echo(String(p['uri']))}`,
      );
    return { skill: entry, ...cache() };
  });
  server.setRequestHandler('resources/list', async (request) => {
    noCursor(request.params ?? {}, 'resources/list');
    const { files } = await served();
    return {
      resources: [...files.values()].map((f) => ({
        uri: f.uri,
        name: f.uri.slice('skill://'.length),
        mimeType: f.mimeType,
        size: Buffer.byteLength(f.text),
      })),
    };
  });
  server.setRequestHandler('resources/templates/list', async (request) => {
    noCursor(request.params ?? {}, 'resources/templates/list');
    return { resourceTemplates: [] };
  });
  server.setRequestHandler('resources/read', async (request) => {
    const file = (await served()).files.get(request.params.uri);
    // A file this caller is not served and one that never existed get the same answer.
    if (!file)
      throw new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        `Resource not found: ${echo(request.params.uri)}`,
      );
    return { contents: [{ uri: file.uri, mimeType: file.mimeType, text: file.text }] };
  });
}
