import { defaultPublicOrigin, isIpLiteral } from '../core/public-origin.ts';

/** What `warden serve` knows once it listens, for the lines it prints. */
export interface ServeFacts {
  version: string;
  /** The server's public origin (core/public-origin.ts) and its MCP endpoint. */
  url: string;
  mcpUrl: string;
  store: { kind: string; where: string; principals: number };
  /** ` --db PATH` to repeat in the printed commands, or ''. */
  dbHint: string;
  /** --require-sign-in: no anonymous tier at /mcp. */
  requireSignIn: boolean;
}

/**
 * The lines `warden serve` prints: where everything is (all at the one public origin), what a
 * caller without a token gets as the flags given make it (the anonymous tier, or a 401 under
 * --require-sign-in), and the next commands for the store as it is: the first principal for
 * an empty one, signing in for one that has principals.
 */
export function serveBanner(f: ServeFacts): string {
  // `login-link` builds links at the default origin by itself; any other is named.
  const linkUrl = f.url === defaultPublicOrigin() ? '' : ` --public-url ${f.url}`;
  const noToken = f.requireSignIn
    ? 'no token → HTTP 401 at connect (--require-sign-in: there is no anonymous tier); a bad token → HTTP 401 too'
    : 'no token → anonymous tier (3 tools); a bad token → HTTP 401, never a downgrade';
  const oauth = f.requireSignIn
    ? `OAuth: a client given only ${f.mcpUrl} is answered 401 at connect, and its principal signs in on the console's consent page`
    : `OAuth: a host that signs in is given ${f.url}/mcp/sign-in (a 401 at connect starts its sign-in on the console's consent page); at ${f.mcpUrl} a client starts in the anonymous tier`;
  const ip = isIpLiteral(new URL(f.url).hostname)
    ? ' (an IP address: passkeys need a host name, so the console signs in with links only; give --public-url with a name)'
    : '';
  const next =
    f.store.principals === 0
      ? [
          'No principals yet. Add the first (an operator), then sign in to the console with a link, or use the admin CLI:',
          `  ./bin/warden.js admin principal add alice --status member --name "Alice" --operator${f.dbHint}`,
          `  ./bin/warden.js admin principal login-link alice${linkUrl}${f.dbHint}`,
          `  TOKEN=$(./bin/warden.js admin token issue alice --scopes profile:write,evidence:write,inbox,mandate:read,consult,vouch${f.dbHint})`,
          `  then point your MCP client at ${f.mcpUrl} with the header "Authorization: Bearer $TOKEN"`,
        ]
      : [
          'Sign in to the console with a one-time link, or manage principals, tokens and mandates with the admin CLI:',
          `  ./bin/warden.js admin principal list${f.dbHint}`,
          `  ./bin/warden.js admin principal login-link HANDLE${linkUrl}${f.dbHint}`,
          `  ./bin/warden.js admin operator grant HANDLE${f.dbHint}   # the console's operator pages: admit, suspend, sign-in links`,
        ];
  return [
    `Warden ${f.version} — MCP server at ${f.mcpUrl}`,
    `  console: ${f.url}/console/${ip}`,
    `    sign in with a one-time link: ./bin/warden.js admin principal login-link HANDLE${linkUrl}${f.dbHint}`,
    `  store: ${f.store.kind} (${f.store.where}), ${f.store.principals} principal(s)`,
    `  tier catalog: ${f.url}/tiers   diagnosis: ${f.url}/diagnose`,
    `  ${noToken}`,
    `  ${oauth}`,
    '',
    ...next,
    '',
  ].join('\n');
}
