import { readFileSync } from 'node:fs';
import { createConsole } from '../console/index.ts';
import { DEFAULT_RATE_LIMITS, startHttpServer, stderrLogger, type RateLimits } from '../server/index.ts';
import { buildRegistry } from '../tools/index.ts';
import { VERSION } from '../version.ts';
import { DB_OPTIONS, dbLocation, displayLocation, openDb, parse } from './common.ts';
import { EXIT, UsageError, type CliIo } from './io.ts';
import { serveBanner } from './serve-banner.ts';
import { PublicOriginError, resolvePublicOrigin } from '../core/public-origin.ts';

export const SERVE_HELP = `Usage: warden serve [--db PATH|URL] [--host 127.0.0.1] [--port 8787] [--public-url URL] [--allow-origin ORIGIN]…
                    [--token-rate ${DEFAULT_RATE_LIMITS.token.perSecond}] [--token-burst ${DEFAULT_RATE_LIMITS.token.burst}] [--anon-rate ${DEFAULT_RATE_LIMITS.anonymous.perSecond}] [--anon-burst ${DEFAULT_RATE_LIMITS.anonymous.burst}] [--shared-rate-limits]
                    [--oauth-clients FILE] [--oauth-dev-private-metadata] [--require-sign-in]

Runs the club's MCP server over Streamable HTTP at /mcp, with /tiers, /diagnose and
/.well-known/oauth-protected-resource beside it, and the principals' web console at /console/. The store is a SQLite file (default
.warden/warden.db, or WARDEN_DB) or a postgres:// URL. Binds 127.0.0.1 unless told otherwise.

Public URL: the one origin people and clients open (--public-url, or WARDEN_PUBLIC_URL);
every sign-in link, redirect, OAuth address and passkey is built from it. By default
http://localhost:PORT, a name (passkeys refuse an IP address), the same machine as
127.0.0.1; a page opened at another of the server's names is sent there before anything
runs. Listening beyond this machine (--host 0.0.0.0) needs it: the address others open.

Rate limits: each agent token may make --token-rate requests a second, in bursts of
--token-burst; callers without a token (and bad tokens), per client address, --anon-rate
and --anon-burst. Over the limit: HTTP 429 with Retry-After. A rate of 0 turns that limit
off. Each replica keeps its own buckets, unless --shared-rate-limits keeps them in the
store, where every replica takes from the same bucket (one store write per request).

OAuth: Warden is the authorization server of its own /mcp. A client that knows only the
MCP URL registers (client ID metadata document, or dynamic registration), sends the
principal to the console's consent page, and receives a token that acts as an agent
token (docs/oauth.md). --oauth-clients FILE: pre-registered clients, a JSON array of
client metadata (client_id, redirect_uris, client_name…). --oauth-dev-private-metadata:
development only; client metadata documents may be served from loopback and private
addresses. --require-sign-in: no anonymous tier at /mcp; a client without a token is
answered 401 at connect, which is when most MCP clients start the OAuth flow.
`;

export async function runServe(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(
    argv,
    {
      ...DB_OPTIONS,
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8787' },
      'public-url': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'token-rate': { type: 'string', default: String(DEFAULT_RATE_LIMITS.token.perSecond) },
      'token-burst': { type: 'string', default: String(DEFAULT_RATE_LIMITS.token.burst) },
      'anon-rate': { type: 'string', default: String(DEFAULT_RATE_LIMITS.anonymous.perSecond) },
      'anon-burst': { type: 'string', default: String(DEFAULT_RATE_LIMITS.anonymous.burst) },
      'shared-rate-limits': { type: 'boolean', default: false },
      'oauth-clients': { type: 'string' },
      'oauth-dev-private-metadata': { type: 'boolean', default: false },
      'require-sign-in': { type: 'boolean', default: false },
    },
    false,
  );
  if (values.help) {
    io.stdout(SERVE_HELP);
    return EXIT.ok;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535; got "${values.port}"`);
  const rateLimits: RateLimits = {
    token: {
      perSecond: nonNegative('--token-rate', values['token-rate']),
      burst: atLeastOne('--token-burst', values['token-burst']),
    },
    anonymous: {
      perSecond: nonNegative('--anon-rate', values['anon-rate']),
      burst: atLeastOne('--anon-burst', values['anon-burst']),
    },
  };
  // One public origin for every link, redirect and passkey: checked before anything is opened.
  const publicUrl = values['public-url'] ?? io.env['WARDEN_PUBLIC_URL'];
  try {
    resolvePublicOrigin({ host: values.host, port, ...(publicUrl !== undefined ? { publicUrl } : {}) });
  } catch (err) {
    if (err instanceof PublicOriginError) throw new UsageError(`--public-url: ${err.message}`);
    throw err;
  }
  const clients = values['oauth-clients'] ? readClients(values['oauth-clients']) : [];
  const store = await openDb(values.db, io, 'create');
  const registry = buildRegistry();
  const logger = stderrLogger(io.stderr);
  // Loaded here, not at the top: only `warden serve` needs the authorization server library.
  const { createAuthorizationServer, resolveAccessToken } = await import('../oauth/index.ts');
  const oauth = createAuthorizationServer({
    store,
    clients,
    onEvent: (event, err) =>
      logger.info(event, { error: err.message, ...(err.error_detail ? { detail: err.error_detail } : {}) }),
    ...(values['oauth-dev-private-metadata'] ? { development: { privateMetadataHosts: true as const } } : {}),
  });
  let running;
  try {
    running = await startHttpServer({
      store,
      registry,
      logger,
      version: VERSION,
      host: values.host,
      port,
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      allowedOrigins: values['allow-origin'] ?? [],
      rateLimits,
      sharedRateLimits: values['shared-rate-limits'],
      requireSignIn: values['require-sign-in'],
      console: createConsole({ store, registry, now: () => new Date(), oauth }),
      oauth: {
        owns: oauth.owns,
        handle: oauth.handle,
        resolve: (token, base) => resolveAccessToken(oauth, base, token),
        issuer: oauth.issuer,
      },
    });
  } catch (err) {
    await store.close();
    throw new UsageError(
      `cannot listen on ${values.host}:${port}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const principals = await store.countPrincipals();
  const db = displayLocation(dbLocation(values.db, io));
  // Repeat --db in the hints only when it holds no secret; a URL is better passed as WARDEN_DB.
  const dbHint = values.db && db === values.db ? ` --db ${values.db}` : '';
  if (values.json) {
    io.stdout(
      JSON.stringify({
        mcp: running.mcpUrl,
        console: `${running.url}/console/`,
        tiers: `${running.url}/tiers`,
        store: store.kind,
        db,
        anonymous: !values['require-sign-in'],
      }) + '\n',
    );
  } else {
    io.stdout(
      serveBanner({
        version: VERSION,
        url: running.url,
        mcpUrl: running.mcpUrl,
        store: { kind: store.kind, where: store.kind === 'sqlite' ? db : 'postgres', principals },
        dbHint,
        requireSignIn: values['require-sign-in'],
      }),
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.close();
  await store.close();
  return EXIT.ok;
}

/** Pre-registered OAuth clients: a JSON array of client metadata (client_id, redirect_uris, client_name…). */
function readClients(path: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(
      `--oauth-clients ${path}: ${err instanceof Error ? err.message : String(err)} (a JSON array of client metadata)`,
    );
  }
  if (
    !Array.isArray(parsed) ||
    parsed.some(
      (c) =>
        typeof c !== 'object' || c === null || typeof (c as { client_id?: unknown }).client_id !== 'string',
    )
  )
    throw new UsageError(`--oauth-clients ${path}: expected a JSON array of objects, each with a client_id`);
  return parsed as { client_id: string }[];
}

function nonNegative(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || value.trim() === '')
    throw new UsageError(`${flag} must be a number of requests a second, 0 or more; got "${value}"`);
  return n;
}

function atLeastOne(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a whole number, 1 or more; got "${value}"`);
  return n;
}
