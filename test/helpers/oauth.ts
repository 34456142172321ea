import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  Client,
  StreamableHTTPClientTransport,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { screenshots, type ConsoleClub } from './console.ts';
import assert from 'node:assert/strict';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'oauth');
/** The test's own CA for metadata documents on loopback (self-signed; Warden trusts it only in development mode). */
export const METADATA_CA = readFileSync(join(FIXTURES, 'metadata-host.crt'), 'utf8');
const METADATA_KEY = readFileSync(join(FIXTURES, 'metadata-host.key'), 'utf8');

/** Where the authorization server sends the browser back: a loopback server that records what arrived. */
export interface Callback {
  url: string;
  /** Resolves with the query of the next redirect to arrive. */
  next(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

export async function startCallback(): Promise<Callback> {
  const waiting: ((q: URLSearchParams) => void)[] = [];
  const arrived: URLSearchParams[] = [];
  const server = createHttpServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    const w = waiting.shift();
    if (w) w(q);
    else arrived.push(q);
  });
  await listen(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    next: () =>
      new Promise((resolve) => {
        const q = arrived.shift();
        if (q) resolve(q);
        else waiting.push(resolve);
      }),
    close: () => closeServer(server),
  };
}

/** An https server on loopback serving one client metadata document (or what a test makes of it). */
export interface MetadataHost {
  url: string;
  /** How many times the document was fetched. */
  fetches: number;
  close(): Promise<void>;
}

export async function serveMetadata(
  document: (url: string) => unknown,
  opts: { delayMs?: number; path?: string; raw?: (url: string) => string } = {},
): Promise<MetadataHost> {
  const path = opts.path ?? '/client.json';
  const host: MetadataHost = { url: '', fetches: 0, close: async () => {} };
  const server = createHttpsServer({ cert: METADATA_CA, key: METADATA_KEY }, (req, res) => {
    host.fetches++;
    if (req.url !== path) return void res.writeHead(404).end();
    const send = () => {
      const body = opts.raw ? opts.raw(host.url) : JSON.stringify(document(host.url));
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    };
    if (opts.delayMs) setTimeout(send, opts.delayMs).unref();
    else send();
  });
  await listen(server);
  host.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  host.close = () => closeServer(server);
  return host;
}

/**
 * The SDK's OAuth client provider, kept in memory: what a host application implements.
 * It records the authorization URL instead of opening a browser; the test drives Chromium there.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier = '';
  authorizationUrls: URL[] = [];
  readonly clientMetadataUrl?: string;

  constructor(
    private readonly callback: string,
    private readonly name: string,
    metadataUrl?: string,
  ) {
    if (metadataUrl) this.clientMetadataUrl = metadataUrl;
  }

  get redirectUrl(): string {
    return this.callback;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export type Era = 'legacy' | 'modern';

export function oauthClient(
  mcpUrl: string,
  provider: MemoryOAuthProvider,
  era: Era,
): { client: Client; transport: StreamableHTTPClientTransport } {
  const client = new Client(
    { name: 'warden-oauth-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  return { client, transport };
}

/** The metadata document a client publishes at its client_id URL. */
export function metadataDocument(url: string, callback: string, name: string): Record<string, unknown> {
  return {
    client_id: url,
    client_name: name,
    client_uri: 'https://client.example/',
    logo_uri: 'https://client.example/logo.png',
    redirect_uris: [callback],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  };
}

/**
 * A principal in Chromium signs in with their passkey on the consent page, picks
 * exactly `scopes` and allows (or denies). Returns when the browser has left the page.
 */
export async function consentInBrowser(
  page: Page,
  authorizationUrl: URL,
  choice: {
    scopes: string[];
    deny?: boolean;
    signIn?: boolean;
    screenshot?: string;
    /** The tool count the live preview must show once the ticks are in. */
    previewTools?: number;
  },
): Promise<void> {
  await page.goto(authorizationUrl.href);
  await page.waitForURL(/\/console\/oauth\//);
  if (choice.signIn !== false && (await page.locator('#passkey-signin').count()) > 0) {
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForSelector('#consent-form', { timeout: 8000 }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}\n${page.url()}\n${(await page.content()).slice(0, 1500)}`);
    });
  }
  for (const box of await page.locator('#consent-form input[name=scope]').all()) {
    const value = await box.getAttribute('value');
    if (choice.scopes.includes(value ?? '')) await box.check();
    else await box.uncheck();
  }
  if (choice.previewTools !== undefined)
    await page.waitForFunction(
      (n) => new RegExp(`see ${n} tools`).test(document.getElementById('token-preview')?.textContent ?? ''),
      choice.previewTools,
      { timeout: 8000 },
    );
  if (choice.screenshot) await screenshots(page, choice.screenshot);
  if (process.env['WARDEN_TEST_LOG']) {
    page.on('console', (m) => process.stderr.write(`console: ${m.text()}\n`));
    page.on('response', (r) =>
      process.stderr.write(`response: ${r.status()} ${r.url()} ${r.headers()['location'] ?? ''}\n`),
    );
  }
  await page.getByRole('button', { name: choice.deny ? 'Deny' : 'Allow' }).click();
  await page
    .waitForURL((u) => !u.pathname.startsWith('/console/'), { timeout: 8000 })
    .catch(async (e: unknown) => {
      throw new Error(`${String(e)}\n${page.url()}\n${(await page.content()).slice(0, 1500)}`);
    });
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A browser without a browser: one cookie jar, redirects followed by hand, for protocol-level refusal tests. */
export class Browserless {
  private jar = new Map<string, string>();
  constructor(readonly base: string) {}

  private remember(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  private cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(url: string): Promise<Response> {
    const res = await fetch(new URL(url, this.base), {
      redirect: 'manual',
      headers: { cookie: this.cookie() },
    });
    this.remember(res);
    return res;
  }

  async post(url: string, form: URLSearchParams): Promise<Response> {
    const res = await fetch(new URL(url, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookie(),
        origin: this.base,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    this.remember(res);
    return res;
  }

  /** Follows redirects while they stay on this server; returns the first answer that is not one, or leaves it. */
  async follow(start: Response): Promise<{ res: Response; url: string }> {
    let res = start;
    let url = '';
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400; i++) {
      url = new URL(res.headers.get('location')!, this.base).href;
      if (!url.startsWith(this.base)) return { res, url };
      res = await this.get(url);
    }
    return { res, url };
  }
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Dynamic client registration, as a client would send it. */
export async function register(
  base: string,
  redirectUri: string,
  name = 'Registered Agent',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function tokenRequest(base: string, params: Record<string, string>) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** A bare MCP tools/list with a bearer token: its HTTP status and tool names. */
export async function listWith(mcpUrl: string, token: string) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const text = await res.text();
  // The answer is JSON or one SSE event, as the client's Accept allows.
  const json = text.startsWith('event:') || text.startsWith('data:') ? /^data: (.*)$/m.exec(text)![1]! : text;
  const tools = res.ok
    ? (JSON.parse(json) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)
    : [];
  return { status: res.status, tools, challenge: res.headers.get('www-authenticate') ?? '' };
}

/** A redirect URI nothing listens on: the protocol-level tests read the redirect, never follow it there. */
export const CALLBACK = 'http://127.0.0.1:9/callback';

export async function signIn(club: ConsoleClub, handle = 'alice'): Promise<Browserless> {
  const b = new Browserless(club.base);
  const t = new URL(await club.link(handle)).searchParams.get('t')!;
  const res = await b.post('/console/link', new URLSearchParams({ t }));
  assert.equal(res.status, 303);
  return b;
}

export function authorizeUrl(
  club: ConsoleClub,
  clientId: string,
  p: Pkce | null,
  extra: Record<string, string> = {},
) {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    scope: 'inbox mandate:read offline_access',
    resource: club.server.mcpUrl,
    state: 'st-1',
    ...(p ? { code_challenge: p.challenge, code_challenge_method: 'S256' } : {}),
    ...extra,
  });
  for (const [k, v] of Object.entries(extra)) if (v === '') q.delete(k);
  return `/oauth/authorize?${q}`;
}

/** Starts an authorization; returns the consent page (200) or where the server sent the browser. */
export async function start(b: Browserless, path: string) {
  return b.follow(await b.get(path));
}

/** Answers the consent page and returns the redirect the client receives. */
export async function answer(
  b: Browserless,
  consentUrl: string,
  html: string,
  intent: 'approve' | 'deny',
  scopes = ['inbox', 'mandate:read'],
) {
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  const form = new URLSearchParams({ _csrf: csrf, intent });
  for (const s of scopes) form.append('scope', s);
  const { url } = await b.follow(await b.post(consentUrl, form));
  return new URL(url);
}

/** The whole flow up to a code, for refusals that come after it. */
export async function codeFor(
  club: ConsoleClub,
  clientId: string,
  p: Pkce,
  scopes?: string[],
): Promise<string> {
  const b = await signIn(club);
  const { res, url } = await start(b, authorizeUrl(club, clientId, p));
  assert.equal(res.status, 200, 'the consent page');
  const back = await answer(b, url, await res.text(), 'approve', scopes);
  const code = back.searchParams.get('code');
  assert.ok(code, `a code (got ${back.href})`);
  return code;
}

export function exchange(club: ConsoleClub, clientId: string, code: string, verifier: string) {
  return tokenRequest(club.base, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    resource: club.server.mcpUrl,
  });
}
