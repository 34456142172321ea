/** What `warden serve` knows once it listens, for the lines it prints. */
export interface ServeFacts {
  version: string;
  /** The server's base URL (public URL if given) and its MCP endpoint. */
  url: string;
  mcpUrl: string;
  store: { kind: string; where: string; principals: number };
  /** ` --db PATH` to repeat in the printed commands, or ''. */
  dbHint: string;
  /** --require-sign-in: no anonymous tier at /mcp. */
  requireSignIn: boolean;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Where a person opens the console, and what to say about that address. Passkeys need a host
 * name (WebAuthn refuses an IP address as relying party): on a loopback address the console
 * is offered at `localhost`, the same machine by name; on an address that listens everywhere
 * (0.0.0.0, ::) at `localhost` for this machine; any other IP address is said to work with
 * sign-in links only.
 */
export function consoleAddress(base: string): { base: string; note: string | null } {
  const u = new URL(base);
  const host = u.hostname;
  const loopback = host === '[::1]' || /^127\./.test(host);
  const everywhere = host === '0.0.0.0' || host === '[::]';
  if (!IPV4.test(host) && !host.startsWith('[')) return { base, note: null };
  if (loopback || everywhere) {
    u.hostname = 'localhost';
    const named = u.href.replace(/\/+$/, '');
    return {
      base: named,
      note: loopback
        ? `localhost, not ${host}: passkeys need a host name`
        : `on this machine; from another, open it by this machine's host name, not its IP address (passkeys need a name), and give that name as --public-url`,
    };
  }
  return {
    base,
    note: `an IP address: passkeys need a host name, so here the console signs in with links only; give --public-url with a name`,
  };
}

/**
 * The lines `warden serve` prints: where everything is, and what a caller without a token
 * gets, as the flags given make it (the anonymous tier, or a 401 under --require-sign-in).
 */
export function serveBanner(f: ServeFacts): string {
  const at = consoleAddress(f.url);
  const noToken = f.requireSignIn
    ? 'no token → HTTP 401 at connect (--require-sign-in: there is no anonymous tier); a bad token → HTTP 401 too'
    : 'no token → anonymous tier (3 tools); a bad token → HTTP 401, never a downgrade';
  const oauth = f.requireSignIn
    ? `OAuth: a client given only ${f.mcpUrl} is answered 401 at connect, and its principal signs in on the console's consent page`
    : `OAuth: a client given only ${f.mcpUrl} starts in the anonymous tier; at its first call beyond it (a 401) its principal signs in on the console's consent page`;
  return [
    `Warden ${f.version} — MCP server at ${f.mcpUrl}`,
    `  console: ${at.base}/console/${at.note ? ` (${at.note})` : ''}`,
    `    sign in with a one-time link: ./bin/warden.js admin principal login-link HANDLE --public-url ${at.base}${f.dbHint}`,
    `  store: ${f.store.kind} (${f.store.where}), ${f.store.principals} principal(s)`,
    `  tier catalog: ${f.url}/tiers   diagnosis: ${f.url}/diagnose`,
    `  ${noToken}`,
    `  ${oauth}`,
    '',
    f.store.principals === 0
      ? 'No principals yet. Add the first (an operator), then sign in to the console with a link, or use the admin CLI:'
      : 'Manage principals, tokens and mandates in the console, or with the admin CLI:',
    `  ./bin/warden.js admin principal add alice --status member --name "Alice" --operator${f.dbHint}`,
    `  TOKEN=$(./bin/warden.js admin token issue alice --scopes profile:write,evidence:write,inbox,mandate:read,consult,vouch${f.dbHint})`,
    `  then point your MCP client at ${f.mcpUrl} with the header "Authorization: Bearer $TOKEN"`,
    '',
  ].join('\n');
}
