import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { explainFailure, maskSecrets, type ExplainContext } from '../../src/connect/explain.ts';
import { keepTail, lastWords, type StdioEvidence } from '../../src/connect/stdio.ts';

/** A Node system error, as `net`, `dns`, `tls` and `child_process` throw them. */
const sys = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);
/** Wrapped as the SDK wraps a network error met by its version probe. */
const probed = (cause: unknown) =>
  new SdkError(
    SdkErrorCode.EraNegotiationFailed,
    'Version negotiation probe failed: fetch failed',
    {},
    { cause: new TypeError('fetch failed', { cause }) },
  );
const refused = (status: number, statusText: string, text: string) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
    status,
    statusText,
    text,
  });
const tls = (code: string, message: string) => probed(sys(message, { code }));
const exited = (ev: Partial<StdioEvidence>): ExplainContext => ({
  stdio: { exitCode: null, signal: null, stderrTail: '', spawnError: null, ...ev },
});
const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
const url = 'https://mcp.example.com:8443/mcp';

const CASES: [name: string, err: unknown, ctx: ExplainContext, line: string][] = [
  [
    'refused, IPv4',
    probed(
      sys('connect ECONNREFUSED 10.0.0.5:443', { code: 'ECONNREFUSED', address: '10.0.0.5', port: 443 }),
    ),
    {},
    'connection refused at 10.0.0.5:443 (ECONNREFUSED); is the server running?',
  ],
  [
    'refused, IPv6',
    probed(sys('connect ECONNREFUSED ::1:3000', { code: 'ECONNREFUSED', address: '::1', port: 3000 })),
    {},
    'connection refused at [::1]:3000 (ECONNREFUSED); is the server running?',
  ],
  [
    'refused, every address of a name',
    probed(
      Object.assign(
        new AggregateError(
          [
            sys('x', { code: 'ECONNREFUSED', address: '::1', port: 80 }),
            sys('y', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 80 }),
          ],
          '',
        ),
        { code: 'ECONNREFUSED' },
      ),
    ),
    {},
    'connection refused at [::1]:80 (ECONNREFUSED); is the server running?',
  ],
  [
    'no such host',
    probed(
      sys('getaddrinfo ENOTFOUND nope.invalid', {
        code: 'ENOTFOUND',
        syscall: 'getaddrinfo',
        hostname: 'nope.invalid',
      }),
    ),
    {},
    'host not found: nope.invalid (ENOTFOUND)',
  ],
  [
    'DNS down',
    probed(sys('getaddrinfo EAI_AGAIN mcp.example.com', { code: 'EAI_AGAIN', hostname: 'mcp.example.com' })),
    {},
    'host lookup failed for mcp.example.com (EAI_AGAIN); is DNS reachable?',
  ],
  [
    'reset',
    probed(sys('read ECONNRESET', { code: 'ECONNRESET' })),
    { url },
    'connection reset by mcp.example.com:8443 (ECONNRESET)',
  ],
  [
    'no route',
    probed(
      sys('connect EHOSTUNREACH 10.9.9.9:443', { code: 'EHOSTUNREACH', address: '10.9.9.9', port: 443 }),
    ),
    {},
    'no route to 10.9.9.9:443 (EHOSTUNREACH)',
  ],
  [
    'connect timeout',
    probed(sys('Connect Timeout Error', { code: 'UND_ERR_CONNECT_TIMEOUT' })),
    { url },
    'no connection to mcp.example.com:8443 before the timeout (UND_ERR_CONNECT_TIMEOUT)',
  ],
  [
    'a code with no sentence of its own',
    probed(sys('other side closed', { code: 'UND_ERR_SOCKET' })),
    { url },
    'cannot reach mcp.example.com:8443: other side closed (UND_ERR_SOCKET)',
  ],
  [
    'self-signed',
    tls('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
    { url },
    'TLS certificate not trusted: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT); to trust its CA, name it in NODE_EXTRA_CA_CERTS',
  ],
  [
    'self-signed in chain',
    tls('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
    {},
    'TLS certificate not trusted: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN); to trust its CA, name it in NODE_EXTRA_CA_CERTS',
  ],
  [
    'missing intermediate',
    tls('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'),
    {},
    'TLS certificate not trusted: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE); to trust its CA, name it in NODE_EXTRA_CA_CERTS',
  ],
  [
    'expired',
    tls('CERT_HAS_EXPIRED', 'certificate has expired'),
    {},
    'TLS certificate expired: certificate has expired (CERT_HAS_EXPIRED)',
  ],
  [
    'wrong host',
    tls(
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames: Host: mcp.example.com. is not in the cert's altnames: DNS:other.example",
    ),
    {},
    "TLS certificate names another host: Hostname/IP does not match certificate's altnames: Host: mcp.example.com. is not in the cert's altnames: DNS:other.example (ERR_TLS_CERT_ALTNAME_INVALID)",
  ],
  [
    'https to a plain HTTP port',
    tls('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'),
    { url },
    'no TLS at mcp.example.com:8443 (ERR_SSL_WRONG_VERSION_NUMBER); is it an http:// URL?',
  ],
  [
    '401, no challenge kept',
    refused(401, 'Unauthorized', '{"error_description":"token expired"}'),
    {},
    'HTTP 401: the server wants credentials (token expired); pass --header "Authorization: Bearer …"',
  ],
  [
    '401, Basic asked',
    refused(401, 'Unauthorized', ''),
    { challenge: 'Basic realm="admin", charset="UTF-8"' },
    'HTTP 401: the server wants credentials (Basic realm="admin"); pass --header "Authorization: Basic …"',
  ],
  [
    '401 with a token sent',
    refused(401, 'Unauthorized', 'bad token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln'),
    { headers: { authorization: 'Bearer abc.def.ghi' } },
    'HTTP 401: the server refused the credentials sent; check their value',
  ],
  [
    '403',
    refused(403, 'Forbidden', ''),
    {},
    'HTTP 403: access denied; the credentials lack a permission it needs',
  ],
  [
    '404',
    refused(404, 'Not Found', 'Cannot POST /mcpx'),
    {},
    'HTTP 404: no MCP endpoint at this URL; check its path',
  ],
  [
    '502 with an HTML page',
    refused(502, 'Bad Gateway', '<html><body>nginx</body></html>'),
    {},
    'HTTP 502 Bad Gateway: the server failed',
  ],
  [
    '500 whose body names a secret',
    refused(500, 'Internal Server Error', 'db login failed: password=pa55word!'),
    {},
    'HTTP 500 Internal Server Error: the server failed: db login failed: password=***',
  ],
  ['418', refused(418, "I'm a teapot", 'short and stout'), {}, "HTTP 418 I'm a teapot: short and stout"],
  [
    'request timeout',
    new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 5000 }),
    {},
    'no answer within 5 s',
  ],
  [
    'abort timeout, timeout known',
    new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
    { timeoutMs: 2500 },
    'no answer within 2.5 s',
  ],
  [
    'abort timeout, timeout unknown',
    new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
    {},
    'no answer before the timeout',
  ],
  [
    'exited, Node crash',
    closed,
    exited({
      exitCode: 1,
      stderrTail:
        "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/srv/server.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n\nNode.js v20.11.0\n",
    }),
    "the server exited with code 1 before answering: Error: Cannot find module '/srv/server.js'",
  ],
  [
    'exited, Python traceback',
    closed,
    exited({
      exitCode: 1,
      stderrTail:
        'Traceback (most recent call last):\n  File "server.py", line 1, in <module>\nModuleNotFoundError: No module named \'mcp\'\n',
    }),
    "the server exited with code 1 before answering: ModuleNotFoundError: No module named 'mcp'",
  ],
  ['exited quietly', closed, exited({ exitCode: 0 }), 'the server exited with code 0 before answering'],
  [
    'exited, nothing error-like said',
    closed,
    exited({ exitCode: 2, stderrTail: 'usage: server [--port N]\n  --stdio  speak MCP on stdio\n' }),
    'the server exited with code 2 before answering: usage: server [--port N] | --stdio speak MCP on stdio',
  ],
  [
    'killed',
    closed,
    exited({ signal: 'SIGKILL', stderrTail: 'loading model…\n' }),
    'the server was killed by SIGKILL before answering: loading model…',
  ],
  [
    'a timeout outranks how the child ended',
    new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 60000 }),
    exited({ signal: 'SIGTERM' }),
    'no answer within 60 s',
  ],
  [
    'not found',
    closed,
    exited({ spawnError: sys('spawn uvx ENOENT', { code: 'ENOENT', syscall: 'spawn uvx', path: 'uvx' }) }),
    'command not found: uvx (ENOENT); is it installed and on PATH?',
  ],
  [
    'not executable, from the error alone',
    sys('spawn ./server EACCES', { code: 'EACCES', syscall: 'spawn ./server', path: './server' }),
    {},
    'permission denied running ./server (EACCES); is it an executable file?',
  ],
  [
    'other spawn error',
    sys('spawn E2BIG', { code: 'E2BIG', syscall: 'spawn node', path: 'node' }),
    {},
    'cannot start node: spawn E2BIG',
  ],
  [
    'anything else, briefed',
    new Error('Unexpected token < in JSON\n  at parse\n  at read'),
    {},
    'Unexpected token < in JSON …',
  ],
  [
    'a header value the server echoes',
    new Error('upstream said: bad key k-12345 for X-Api-Key'),
    { headers: { 'X-Api-Key': 'k-12345' } },
    'upstream said: bad key *** for X-Api-Key',
  ],
];

describe('explainFailure: one line naming the cause', () => {
  for (const [name, err, ctx, line] of CASES) it(name, () => assert.equal(explainFailure(err, ctx), line));

  it('keeps every line to one line of at most 300 characters, advice included', () => {
    const long = exited({ exitCode: 1, stderrTail: `Error: ${'x'.repeat(1000)}\r\n` });
    const lines = [...CASES.map(([, err, ctx]) => explainFailure(err, ctx)), explainFailure(closed, long)];
    for (const line of lines) assert.ok(line.length <= 300 && !/[\r\n\t]/.test(line), line);
    const cut = explainFailure(refused(401, 'Unauthorized', ''), {
      challenge: `Bearer realm="${'r'.repeat(400)}"`,
    });
    assert.ok(cut.endsWith('…); pass --header "Authorization: Bearer …"'.slice(3)), cut);
    assert.equal(cut.length, 300);
  });
});

describe('maskSecrets', () => {
  const MASKED: [text: string, known: string[], masked: string][] = [
    ['https://user:pa55@host/x', [], 'https://***@host/x'],
    ['https://ghp_abcdefghijklmnopqrstuvwxyz@github.com', [], 'https://***@github.com'],
    ['Authorization: Bearer abcdef123456', [], 'Authorization: Bearer ***'],
    ['Basic dXNlcjpwYXNz', [], 'Basic ***'],
    ['Bearer realm="warden", error="invalid_token"', [], 'Bearer realm="warden", error="invalid_token"'],
    [
      'GITHUB_TOKEN=ghp_x1 api_key: "abc" "client_secret":"s3"',
      [],
      'GITHUB_TOKEN=*** api_key: "***" "client_secret":"***"',
    ],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl here', [], 'jwt *** here'],
    ['keys sk-proj-abcdefghijklmnop and xoxb-1234567890-abc', [], 'keys *** and ***'],
    ['sent Bearer opaque-value-1 to it', ['Bearer opaque-value-1'], 'sent Bearer *** to it'],
    ['value opaque-value-1 alone', ['Bearer opaque-value-1'], 'value *** alone'],
    ['a 1 is not a secret', ['1'], 'a 1 is not a secret'],
    ['WARDEN_TOKEN is not set; token_revoked', [], 'WARDEN_TOKEN is not set; token_revoked'],
  ];
  for (const [text, known, masked] of MASKED) it(text, () => assert.equal(maskSecrets(text, known), masked));
});

describe('stderr: the tail kept and the last words picked', () => {
  it('keeps at most 4096 characters and 20 lines, cut at a line start', () => {
    let tail = '';
    for (let i = 0; i < 500; i++) tail = keepTail(tail, `line ${i} ${'.'.repeat(i % 300)}\n`);
    assert.ok(tail.length <= 4096);
    assert.ok(tail.split('\n').length <= 21);
    assert.match(tail, /^line \d+ /);
    assert.ok(tail.endsWith(`line 499 ${'.'.repeat(199)}\n`));
    assert.equal(keepTail('', 'x'.repeat(10_000)).length, 4096);
  });

  it('picks the last error-like line, else the last two', () => {
    assert.equal(lastWords('Error: first\nError: second\n    at x\n'), 'Error: second');
    assert.equal(lastWords('one\ntwo\nthree\n'), 'two | three');
    assert.equal(lastWords('\n\n'), '');
  });
});
