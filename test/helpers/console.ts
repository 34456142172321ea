import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type axeCore from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { makeLoginLink } from '../../src/admin/console-links.ts';
import { addPrincipal } from '../../src/admin/principals.ts';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { createConsole, type ConsoleDeps } from '../../src/console/index.ts';
import {
  createAuthorizationServer,
  resolveAccessToken,
  type AuthorizationServer,
  type AuthorizationServerOptions,
} from '../../src/oauth/index.ts';
import { silentLogger, startHttpServer, stderrLogger, type RunningServer } from '../../src/server/index.ts';
import type { Store } from '../../src/store/contract.ts';
import { openStore } from '../../src/store/index.ts';
import type { SqlStoreOptions } from '../../src/store/sql-store.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { ALL_AGENT_SCOPES, CANDIDATE_SCOPES, connectClient } from './club.ts';

export { browserSkip, CHROMIUM, launchBrowser } from './chromium.ts';

/** A real Warden with its console, at http://localhost:PORT (a host name, so WebAuthn accepts it as relying party). */
export interface ConsoleClub {
  dir: string;
  store: Store;
  registry: ReturnType<typeof buildRegistry>;
  server: RunningServer;
  base: string;
  add(
    handle: string,
    status: 'member' | 'candidate',
    opts?: { operator?: boolean; name?: string },
  ): Promise<void>;
  issue(handle: string, scopes?: string, label?: string): Promise<{ token: string; tokenId: string }>;
  link(handle: string, expires?: string): Promise<string>;
  connect(token?: string): Promise<Client>;
  /** Warden's authorization server, when started with one. */
  oauth: AuthorizationServer | null;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startConsoleClub(
  opts: Partial<ConsoleDeps> = {},
  serve: {
    https?: boolean;
    oauth?: Omit<AuthorizationServerOptions, 'store'>;
    requireSignIn?: boolean;
    /** The public origin's host (default localhost); an IP address shows the pages where no passkey works. */
    publicHost?: string;
    /** How the store batches activity (its defaults unless told). */
    store?: SqlStoreOptions;
    /** Where the store is (a SQLite file or a postgres:// URL); WARDEN_CONSOLE_TEST_DB, or a fresh SQLite file, unless told. */
    db?: string;
  } = {},
): Promise<ConsoleClub> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-console-'));
  const store = await openStore(
    serve.db ?? process.env['WARDEN_CONSOLE_TEST_DB'] ?? join(dir, 'club.db'),
    serve.store,
  );
  const registry = buildRegistry();
  const port = await freePort();
  // Told its public URL is https (as behind a TLS proxy) while it serves plain http here.
  const base = `${serve.https ? 'https' : 'http'}://${serve.publicHost ?? 'localhost'}:${port}`;
  const logger = process.env['WARDEN_TEST_LOG'] ? stderrLogger((t) => process.stderr.write(t)) : silentLogger;
  const oauth = serve.oauth
    ? createAuthorizationServer({
        store,
        onEvent: (event, err) => logger.info(event, { error: err.message, detail: err.error_detail }),
        ...serve.oauth,
      })
    : null;
  const server = await startHttpServer({
    store,
    registry,
    logger,
    version: 'test',
    port,
    publicUrl: base,
    console: createConsole({ store, registry, now: () => new Date(), ...(oauth ? { oauth } : {}), ...opts }),
    ...(serve.requireSignIn ? { requireSignIn: true } : {}),
    ...(oauth
      ? {
          oauth: {
            owns: oauth.owns,
            handle: oauth.handle,
            resolve: (token: string, b: string) => resolveAccessToken(oauth, b, token),
            issuer: oauth.issuer,
          },
        }
      : {}),
  });
  const clients: Client[] = [];
  return {
    dir,
    store,
    registry,
    server,
    base,
    oauth,
    async add(handle, status, o = {}) {
      await addPrincipal(store, handle, { status, name: o.name ?? handle, operator: o.operator ?? false });
    },
    async issue(handle, scopes, label = `${handle}-agent`) {
      const p = await store.getPrincipalByHandle(handle);
      const s = scopes ?? (p?.status === 'candidate' ? CANDIDATE_SCOPES : ALL_AGENT_SCOPES);
      const issued = await issueAgentToken(store, registry, handle, { scopes: s, label });
      return { token: issued.token, tokenId: issued.record.id };
    },
    async link(handle, expires) {
      const now = opts.now?.() ?? new Date();
      return (await makeLoginLink(store, handle, { publicUrl: base, now, ...(expires ? { expires } : {}) }))
        .url;
    },
    async connect(token) {
      const c = await connectClient(server.mcpUrl, token, 'legacy');
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      await server.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fails a test on any page error, console error, dialog or request to another origin. */
export function watchPage(page: Page, base: string): { problems: string[] } {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('data:'))
      problems.push(`foreign request: ${r.url()}`);
  });
  return { problems };
}

/** Adds Chromium's CDP virtual authenticator (a platform passkey that always says yes). */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * Whether browser tests write screenshots: only when asked (`WARDEN_SCREENSHOTS=1`), so
 * running the tests leaves the tree as it was (CONTRIBUTING.md).
 */
export const SCREENSHOTS = process.env['WARDEN_SCREENSHOTS'] === '1';

/** Screenshots of a page at 1280 and 375 px into the git-ignored screenshots/ folder, when asked for. */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const dir = join(process.cwd(), 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** One axe-core finding on a page, as a test failure names it. */
export interface AxeFinding {
  rule: string;
  impact: string;
  target: string;
  /** The start of the element's markup, to find it when its selector is as bare as `div`. */
  html: string;
  help: string;
  url: string;
}

/**
 * Runs axe-core on the page as it is now: the rules it runs by default (WCAG 2.0 and 2.1,
 * A and AA, and its best practices) and WCAG 2.2's target size, which it leaves off by
 * default. axe's source is evaluated over the DevTools protocol, which the console's
 * `script-src 'self'` does not govern, so the page is checked under its real
 * Content-Security-Policy (an injected <script> tag would be refused).
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    const { default: axe } = await import('axe-core');
    await page.evaluate(axe.source);
  }
  const results: axeCore.AxeResults = await page.evaluate(() =>
    (window as unknown as { axe: typeof axeCore }).axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'target-size': { enabled: true } },
    }),
  );
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      target: n.target.map(String).join(' '),
      html: n.html.length > 120 ? `${n.html.slice(0, 119)}…` : n.html,
      help: v.help,
      url: v.helpUrl,
    })),
  );
}

/** A browser-less console visitor: fetch with a cookie jar of one, for header-level tests. */
export class Visitor {
  cookie = '';
  constructor(readonly base: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(this.base + path, {
      redirect: 'manual',
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
    });
  }

  /** A form post; Origin is ours unless told otherwise (null: none sent). */
  async post(
    path: string,
    form: Record<string, string | string[]>,
    opts: { origin?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const x of [v].flat()) body.append(k, x);
    const origin = opts.origin === undefined ? this.base : opts.origin;
    const res = await fetch(this.base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(origin ? { origin } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...opts.headers,
      },
      body: body.toString(),
    });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!;
    return res;
  }

  /** Signs in with a one-time link, as a person pressing "Continue". */
  async signInWith(link: string): Promise<Response> {
    const t = new URL(link).searchParams.get('t')!;
    return this.post('/console/link', { t });
  }

  /** The CSRF token of the current session, read from a page's form. */
  async csrf(): Promise<string> {
    const text = await (await this.get('/console/mandate')).text();
    const m = /name="_csrf" value="([^"]+)"/.exec(text);
    if (!m) throw new Error('no CSRF field: not signed in?');
    return m[1]!;
  }
}
