// No error leaves /mcp carrying what a caller sent raw or uncut, the SDK's own included: a
// header and body that disagree, an unsupported version header, each answered with the
// caller's text made visible and cut short, and nothing run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { boundError, boundSdkErrors, MESSAGE_MAX } from '../../src/server/bounded-errors.ts';
import { rawPost, spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** What a caller may send to be repeated: a bidi override, an escape sequence, 5,000 characters. */
const PAYLOAD = `\u202e${'A'.repeat(5000)}\u001b[31m\u200b`;
/** Characters that must never come back raw: controls, bidi overrides and isolates, zero-width. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/u;

/** Every string in a JSON value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (typeof v === 'object' && v !== null) return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}

function assertBounded(body: string): void {
  assert.ok(body.length < 2_000, `the whole answer is bounded (${body.length} characters)`);
  const parsed = JSON.parse(body) as { error: { message: string; data?: unknown } };
  assert.ok([...parsed.error.message].length <= MESSAGE_MAX + 1, 'the message is cut');
  for (const s of strings(parsed.error)) {
    assert.doesNotMatch(s, HIDDEN, `nothing invisible comes back raw: ${JSON.stringify(s.slice(0, 80))}`);
    assert.ok(!s.includes('A'.repeat(400)), 'the caller text is cut');
  }
}

describe('errors repeat no caller input raw or uncut', () => {
  let club: TestClub;
  let token: string;
  before(async () => {
    club = await startClub();
    token = (await club.addMember('alice')).token;
  });
  after(() => club.close());

  const modern = (method: string, params: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } });

  const cases: [string, string, Record<string, string>][] = [
    [
      'a tool name in the body that is not the Mcp-Name header',
      modern('tools/call', { name: PAYLOAD, arguments: {} }),
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'club_info' },
    ],
    [
      'a method in the body that is not the Mcp-Method header',
      modern(`tools/list${PAYLOAD}`, {}),
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    ],
    [
      'a resource URI in the body that is not the Mcp-Name header',
      modern('resources/read', { uri: `skill://${PAYLOAD}` }),
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'resources/read', 'mcp-name': 'skill://club/SKILL.md' },
    ],
    [
      'a tools/call without its Mcp-Name header',
      modern('tools/call', { name: PAYLOAD, arguments: {} }),
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' },
    ],
  ];

  for (const [what, body, headers] of cases) {
    for (const who of ['anonymous', 'member'] as const) {
      it(`${what} (${who}): answered with the caller's text visible and cut, and nothing run`, async () => {
        const spy = spyOnHandler(club.registry, 'club_info');
        const r = await rawPost(club.server.mcpUrl, body, {
          ...headers,
          ...(who === 'member' ? { authorization: `Bearer ${token}` } : {}),
        });
        assert.equal(r.status, 400);
        const text = await r.text();
        assertBounded(text);
        assert.match(text, /\[U\+202E\]A/, 'the override is shown, not obeyed');
        assert.match(text, /…/, 'and the cut is marked');
        assert.equal(spy.calls, 0);
      });
    }
  }

  it('an unsupported MCP-Protocol-Version header comes back with its control characters visible', async () => {
    const r = await rawPost(
      club.server.mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      {
        'mcp-protocol-version': `2099-01-01\t${'9'.repeat(3000)}`,
      },
    );
    assert.equal(r.status, 400);
    const text = await r.text();
    assertBounded(text);
    assert.doesNotMatch(text, /\\t/, 'no raw tab');
    assert.match(text, /2099-01-01\[U\+0009\]/);
  });
});

describe('boundError and boundSdkErrors', () => {
  it('keeps the code, makes the message safe and cut, bounds every string, list and object of data', () => {
    const e = boundError({
      code: -32020,
      message: `x${PAYLOAD}`,
      data: {
        mismatch: { header: 'club_info', body: PAYLOAD },
        list: Array.from({ length: 40 }, (_, i) => i),
      },
    });
    assert.equal(e['code'], -32020);
    assert.ok([...(e['message'] as string)].length <= MESSAGE_MAX + 1);
    const data = e['data'] as { mismatch: { header: string; body: string }; list: unknown[] };
    assert.equal(data.mismatch.header, 'club_info', 'short plain text is kept as it is');
    assert.ok(data.mismatch.body.startsWith('[U+202E]A') && data.mismatch.body.endsWith('…'));
    assert.equal(data.list.length, 17);
    assert.equal(data.list.at(-1), '…');
  });

  it("bounding twice changes nothing: Warden's own echoes pass as they are", () => {
    const once = boundError({ code: -32602, message: `Tool ${PAYLOAD} not found`, data: { name: PAYLOAD } });
    assert.deepEqual(boundError(once), once);
    const echoed = 'Tool [U+001B]]0;owned[U+0007] not found';
    assert.equal(boundError({ code: -32602, message: echoed })['message'], echoed);
  });

  it('an ordinary message of ours passes unchanged', () => {
    const message = 'Invalid Request: this is a JSON-RPC batch, and MCP revision 2025-06-18 has no batches.';
    assert.deepEqual(boundError({ code: -32600, message }), { code: -32600, message });
  });

  it('bounds errors in an event stream, event by event, and leaves results as they are', async () => {
    const result = { jsonrpc: '2.0', id: 1, result: { note: `${PAYLOAD}` } };
    const error = { jsonrpc: '2.0', id: 2, error: { code: -32601, message: `Method not found: ${PAYLOAD}` } };
    const events = `event: message\ndata: ${JSON.stringify(result)}\n\nevent: message\ndata: ${JSON.stringify(error)}\n\n`;
    // Split mid-event and mid-character, as a network may.
    const bytes = new TextEncoder().encode(events);
    const cut = bytes.length - 7;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, cut));
        c.enqueue(bytes.slice(cut));
        c.close();
      },
    });
    const out = await boundSdkErrors(
      new Response(stream, { headers: { 'content-type': 'text/event-stream', 'content-length': '1' } }),
    );
    assert.equal(out.headers.get('content-length'), null);
    const [first, second] = (await out.text()).split('\n\n');
    assert.deepEqual(JSON.parse(first!.split('data: ')[1]!), result, 'a result is untouched');
    const bounded = JSON.parse(second!.split('data: ')[1]!) as { error: { message: string } };
    assert.match(bounded.error.message, /^Method not found: \[U\+202E\]A+…$/);
  });
});
