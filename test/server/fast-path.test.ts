import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, silentLogger, type RunningServer } from '../../src/server/index.ts';
import { rawPost, startClub, type TestClub } from '../helpers/club.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'diff', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The JSON-RPC message of a response, whether the server framed it as JSON or as one SSE event. */
async function message(res: Response): Promise<unknown> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6));
    assert.equal(data.length, 1, 'one event');
    return JSON.parse(data[0]!);
  }
  return JSON.parse(text);
}

/** Random parts of an answer (wrapper boundaries, ids, timestamps) normalised away. */
function normalise(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/member-text [a-z2-7]{20,}/g, 'member-text B')
      .replace(/\/member-text [a-z2-7]{20,}/g, '/member-text B')
      .replace(/(ev|q|rv|dc)_[0-9a-f]{16,}/g, '$1_ID')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'T'),
  );
}

describe('the fast path answers exactly what the SDK path answers', () => {
  let club: TestClub;
  let sdkOnly: RunningServer;
  const tokens: Record<string, string | undefined> = { anonymous: undefined };
  before(async () => {
    club = await startClub();
    tokens['member'] = (await club.addMember('alice')).token;
    tokens['candidate'] = (await club.addCandidate('bob')).token;
    sdkOnly = await startHttpServer({
      store: club.store,
      registry: club.registry,
      logger: silentLogger,
      version: 'test',
      port: 0,
      fastPath: false,
    });
  });
  after(async () => {
    await sdkOnly.close();
    await club.close();
  });

  const calls: [string, Record<string, unknown>][] = [
    ['club_info', {}],
    ['get_profile', { handle: 'bob' }],
    ['get_profile', { handle: 'nobody' }],
    ['file_evidence', { origin: 'commit', claim: 'shipped it' }],
    ['file_evidence', { origin: 'nonsense' }],
    ['list_evidence', {}],
    ['get_mandate', {}],
    ['ask_agent', { to: 'bob', question: 'how?' }],
    ['set_mandate', { scopes: [] }],
    ['no_such_tool', {}],
  ];

  for (const era of ['legacy', 'modern'] as const) {
    for (const who of ['anonymous', 'candidate', 'member']) {
      it(`${era}, ${who}: tools/list and every kind of tools/call`, async () => {
        const requests: { body: Record<string, unknown>; headers: Record<string, string> }[] = [];
        const base = (
          method: string,
          params: Record<string, unknown>,
          id: number | string,
          name?: string,
        ) => ({
          body: {
            jsonrpc: '2.0',
            id,
            method,
            params: era === 'modern' ? { ...params, _meta: META } : params,
          },
          headers: {
            'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-11-25',
            ...(era === 'modern' ? { 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) } : {}),
            ...(tokens[who] ? { authorization: `Bearer ${tokens[who]}` } : {}),
          },
        });
        requests.push(base('tools/list', {}, 1));
        calls.forEach(([name, args], i) =>
          requests.push(base('tools/call', { name, arguments: args }, `c${i}`, name)),
        );
        for (const r of requests) {
          // Each write goes to its own server in turn, so both see the same store state.
          const fastRes = await rawPost(club.server.mcpUrl, JSON.stringify(r.body), r.headers);
          const sdkRes = await rawPost(sdkOnly.mcpUrl, JSON.stringify(r.body), r.headers);
          if (era === 'legacy') {
            // Proof both paths really ran: the SDK frames 2025-era answers as SSE, the fast path as JSON.
            assert.match(fastRes.headers.get('content-type') ?? '', /application\/json/);
            assert.match(sdkRes.headers.get('content-type') ?? '', /text\/event-stream/);
          }
          // The answer is this caller's alone: no cache keeps it (the SDK's stream says no-cache).
          assert.equal(fastRes.headers.get('cache-control'), 'no-store');
          assert.equal(fastRes.headers.get('x-content-type-options'), 'nosniff');
          const viaFast = normalise(await message(fastRes));
          const viaSdk = normalise(await message(sdkRes));
          assert.deepEqual(viaFast, viaSdk, JSON.stringify(r.body));
        }
      });
    }
  }

  it('a tools/list cursor is −32602 on either path and in either era: no cursor is ever issued', async () => {
    for (const era of ['legacy', 'modern'] as const)
      for (const cursor of ['garbage', '', 'eyJwYWdlIjoyfQ', 'a'.repeat(5000)])
        for (const server of [club.server, sdkOnly]) {
          const params = era === 'modern' ? { cursor, _meta: META } : { cursor };
          const headers: Record<string, string> = {
            'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-11-25',
            ...(era === 'modern' ? { 'mcp-method': 'tools/list' } : {}),
            authorization: `Bearer ${tokens['member']}`,
          };
          const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params });
          const res = await rawPost(server.mcpUrl, body, headers);
          assert.equal(res.status, 200, `${era} ${cursor.slice(0, 9)}`);
          const answer = (await message(res)) as {
            id: number;
            result?: unknown;
            error?: { code: number; message: string };
          };
          assert.equal(answer.result, undefined, `${era}: no list for an invalid cursor`);
          assert.equal(answer.id, 9);
          assert.equal(answer.error?.code, -32602, `${era} ${cursor.slice(0, 9)}`);
          assert.match(answer.error?.message ?? '', /^Invalid params: .*issues no tools\/list cursor/);
          assert.ok(!answer.error?.message.includes(cursor || 'never'), 'the cursor is not echoed');
        }
    // The official client's explicit page request is refused the same way.
    const client = await club.connect(tokens['member']);
    await assert.rejects(client.listTools({ cursor: 'garbage' }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32602);
      return true;
    });
    assert.equal((await client.listTools()).tools.length, 14, 'without a cursor, the whole list');
  });

  it('leaves everything unusual to the SDK: a cursor, a batch, a notification, a mismatched header', async () => {
    const auth = { authorization: `Bearer ${tokens['member']}` };
    const cases: [string, Record<string, string>][] = [
      [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } }), {}],
      [JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]), {}],
      [JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {}],
      [
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
      ],
      [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {}],
    ];
    for (const [body, headers] of cases) {
      const a = await rawPost(club.server.mcpUrl, body, { ...auth, ...headers });
      const b = await rawPost(sdkOnly.mcpUrl, body, { ...auth, ...headers });
      assert.equal(a.status, b.status, body);
      assert.equal(await a.text(), await b.text(), body);
    }
  });
});
