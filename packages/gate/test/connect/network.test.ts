import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { classifyFailure } from '../../src/connect/failure.ts';
import { explainFailure, keepChallenge } from '../../src/connect/explain.ts';
import { closedPort, closeServer, connectError, listen, selfSigned } from './helpers.ts';

/** Connects to `url` as the gate does and explains the failure. */
async function explainUrl(url: string, headers: Record<string, string> = {}, timeout?: number) {
  const kept = keepChallenge();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: kept.fetch,
  });
  const err = await connectError(transport, timeout);
  const challenge = kept.challenge();
  return { err, line: explainFailure(err, { url, headers, ...(challenge ? { challenge } : {}) }) };
}

describe('an HTTP server that cannot be reached, explained from the network', () => {
  it('names a refused connection and asks whether the server runs', async () => {
    const port = await closedPort();
    const { line } = await explainUrl(`http://127.0.0.1:${port}/mcp`);
    assert.equal(line, `connection refused at 127.0.0.1:${port} (ECONNREFUSED); is the server running?`);
  });

  it('names a port fetch will not reach at all', async () => {
    const { line } = await explainUrl('http://127.0.0.1:9/mcp');
    assert.equal(line, 'fetch refuses to reach port 9 (bad port); serve on another port');
  });

  it('names a host that does not resolve', async () => {
    const { err, line } = await explainUrl('http://nope.invalid/mcp');
    // A resolver that cannot be reached at all answers "try again" rather than "no such host".
    const failure = classifyFailure(err);
    const code = failure.kind === 'unreachable' ? failure.code : undefined;
    assert.equal(
      line,
      code === 'EAI_AGAIN'
        ? 'host lookup failed for nope.invalid (EAI_AGAIN); is DNS reachable?'
        : 'host not found: nope.invalid (ENOTFOUND)',
    );
  });

  it('never prints the credentials of a URL', async () => {
    const port = await closedPort();
    const { line } = await explainUrl(`http://admin:hunter2@127.0.0.1:${port}/mcp`);
    // The SDK's own message repeats the URL, password and all.
    assert.equal(line, 'fetch will not send credentials written in a URL; pass them with --header');
  });
});

describe('an HTTPS server whose certificate is not trusted', () => {
  const made = selfSigned();
  let server: https.Server;
  let port = 0;
  before(async () => {
    if ('skip' in made) return;
    server = https.createServer({ key: made.key, cert: made.cert }, (_req, res) => res.end());
    port = await listen(server);
  });
  after(() => ('skip' in made ? undefined : closeServer(server)));

  it('names the certificate problem and how to trust it', { skip: 'skip' in made && made.skip }, async () => {
    const { line } = await explainUrl(`https://127.0.0.1:${port}/mcp`);
    assert.equal(
      line,
      'TLS certificate not trusted: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT); ' +
        'to trust its CA, name it in NODE_EXTRA_CA_CERTS',
    );
  });
});

describe('an HTTP server that refuses, explained from its answer', () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const auth = req.headers.authorization;
      if (req.url === '/401' && auth) {
        const said = `token ${auth.slice('Bearer '.length)} is revoked`;
        res.writeHead(401, {
          'WWW-Authenticate': `Bearer error="invalid_token", error_description="${said}"`,
        });
        res.end(JSON.stringify({ error: 'invalid_token', error_description: said }));
      } else if (req.url === '/401') {
        res.writeHead(401, {
          'WWW-Authenticate': `Bearer realm="warden", resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
        });
        res.end(JSON.stringify({ error: 'invalid_token', error_description: 'no token' }));
      } else if (req.url === '/403') {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'insufficient_scope', error_description: 'needs tools:read' }));
      } else if (req.url === '/500') {
        res.writeHead(500).end('database down\nat db.ts:12');
      } else if (req.url === '/silent') {
        // Never answers.
      } else {
        res.writeHead(404).end('Not Found');
      }
    });
  });
  let origin = '';
  before(async () => {
    origin = `http://127.0.0.1:${await listen(server)}`;
  });
  after(() => closeServer(server));

  it('401: quotes what the server asked for and says how to pass credentials', async () => {
    const { line } = await explainUrl(`${origin}/401`);
    assert.equal(
      line,
      `HTTP 401: the server wants credentials (Bearer realm="warden" ` +
        `resource_metadata="${origin}/.well-known/oauth-protected-resource"); ` +
        'pass --header "Authorization: Bearer …"',
    );
  });

  it('401 with credentials sent: says they were refused, without printing them', async () => {
    const { line } = await explainUrl(`${origin}/401`, { Authorization: 'Bearer s3cr3t-token-value' });
    assert.equal(
      line,
      'HTTP 401: the server refused the credentials sent (Bearer error="invalid_token" ' +
        'error_description="token *** is revoked"); check their value',
    );
  });

  it('403: says access is denied and why, as the server put it', async () => {
    const { line } = await explainUrl(`${origin}/403`);
    assert.equal(
      line,
      'HTTP 403: access denied (needs tools:read); the credentials lack a permission it needs',
    );
  });

  it('404: says there is no MCP endpoint at this URL', async () => {
    const { line } = await explainUrl(`${origin}/nothing-here`);
    assert.equal(line, 'HTTP 404: no MCP endpoint at this URL; check its path');
  });

  it('500: gives the status text and the first line of what the server said', async () => {
    const { line } = await explainUrl(`${origin}/500`);
    assert.equal(line, 'HTTP 500 Internal Server Error: the server failed: database down');
  });

  it('names https:// used on a plain HTTP port', async () => {
    const { line } = await explainUrl(`${origin.replace('http:', 'https:')}/mcp`);
    assert.equal(
      line,
      `no TLS at ${origin.slice('http://'.length)} (ERR_SSL_WRONG_VERSION_NUMBER); is it an http:// URL?`,
    );
  });

  it('says how long it waited for a server that never answers', async () => {
    const { line } = await explainUrl(`${origin}/silent`, {}, 300);
    assert.equal(line, 'no answer within 0.3 s');
  });
});
