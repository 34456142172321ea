// Why a server could not be reached, in one line with the next step where one is obvious.
// classifyFailure sorts the SDK's errors; this renders them with what the SDK's own messages
// leave out: how a stdio child ended and what it last said, the network's code, a certificate's
// complaint, what a 401 asked for. Header values, tokens and URL credentials are masked.
import type { FetchLike } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { causeChain, classifyFailure, codeOf, errorDescription, type Failure } from './failure.ts';
import { lastWords, type StdioEvidence } from './stdio.ts';

export interface ExplainContext {
  /** The URL reached: names the host or port when the error does not. */
  url?: string;
  /** How the stdio child ended (launchStdio's evidence). */
  stdio?: StdioEvidence;
  /** Headers sent: their values are masked, and a sent Authorization changes the 401 advice. */
  headers?: Record<string, string>;
  /** Further values never to print, such as the environment given to a command. */
  secrets?: string[];
  /** The WWW-Authenticate of a refusal (see keepChallenge): the SDK's error has no headers. */
  challenge?: string;
  /** The timeout in force, for a timeout error that does not carry it. */
  timeoutMs?: number;
  /** What a timeout's message ends with: the limit and how to change it, in the caller's words. */
  timeoutNext?: string;
}

const MAX_LINE = 300;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\s]+/g;
type Cause = { said: string; next?: string };
type Unreachable = Extract<Failure, { kind: 'unreachable' }>;

/** One line of at most MAX_LINE characters naming why `err` happened; `next` advice is never cut. */
export function explainFailure(err: unknown, ctx: ExplainContext = {}): string {
  const { said, next } = causeOf(err, ctx);
  const tail = next ? `; ${next}` : '';
  const known = [...Object.values(ctx.headers ?? {}), ...(ctx.secrets ?? [])];
  const line = maskSecrets(said, known).replace(CONTROL, ' ').trim();
  const room = MAX_LINE - tail.length;
  return (line.length > room ? `${line.slice(0, room - 1)}…` : line) + tail;
}

function causeOf(err: unknown, ctx: ExplainContext): Cause {
  const chain = causeChain(err);
  const ev = ctx.stdio;
  const spawn = ev?.spawnError ?? chain.find((e) => /^spawn\b/.test(field(e, 'syscall')));
  if (spawn) return spawnCause(spawn);
  const failure = classifyFailure(err);
  const words = ev && lastWords(ev.stderrTail) ? `: ${lastWords(ev.stderrTail)}` : '';
  if (failure.kind === 'timeout') {
    const ms = timeoutOf(chain) ?? ctx.timeoutMs;
    return {
      said: `no answer ${ms ? `within ${+(ms / 1000).toFixed(1)} s` : 'before the timeout'}${words}`,
      ...(ctx.timeoutNext ? { next: ctx.timeoutNext } : {}),
    };
  }
  if (ev?.signal) return { said: `the server was killed by ${ev.signal} before answering${words}` };
  if (ev && ev.exitCode !== null)
    return { said: `the server exited with code ${ev.exitCode} before answering${words}` };
  if (chain.some((e) => /URL that includes credentials/.test(messageOf(e))))
    return { said: 'fetch will not send credentials written in a URL', next: 'pass them with --header' };
  if (failure.kind === 'unauthorized' || failure.kind === 'http') return httpCause(failure, ctx);
  if (failure.kind === 'unreachable') return networkCause(failure, chain, ctx);
  return { said: failure.message };
}

function spawnCause(e: unknown): Cause {
  const command = field(e, 'path') || 'the command';
  const code = codeOf(e);
  if (code === 'ENOENT')
    return { said: `command not found: ${command} (ENOENT)`, next: 'is it installed and on PATH?' };
  if (code === 'EACCES')
    return { said: `permission denied running ${command} (EACCES)`, next: 'is it an executable file?' };
  return { said: `cannot start ${command}: ${messageOf(e)}` };
}

function httpCause(f: Extract<Failure, { status: number }>, ctx: ExplainContext): Cause {
  const said = errorDescription(f.body);
  if (f.status === 401) {
    const asked = ctx.challenge ? ` (${describeChallenge(ctx.challenge)})` : said ? ` (${said})` : '';
    if (Object.keys(ctx.headers ?? {}).some((k) => k.toLowerCase() === 'authorization'))
      return { said: `HTTP 401: the server refused the credentials sent${asked}`, next: 'check their value' };
    const scheme = /^\s*([A-Za-z][\w-]*)/.exec(ctx.challenge ?? '')?.[1] ?? 'Bearer';
    return {
      said: `HTTP 401: the server wants credentials${asked}`,
      next: `pass --header "Authorization: ${scheme} …"`,
    };
  }
  if (f.status === 403)
    return {
      said: `HTTP 403: access denied${said ? ` (${said})` : ''}`,
      next: 'the credentials lack a permission it needs',
    };
  if (f.status === 404) return { said: 'HTTP 404: no MCP endpoint at this URL', next: 'check its path' };
  const text = f.body.trim();
  const shown = said ?? (text.startsWith('<') ? '' : (text.split('\n')[0] ?? '').slice(0, 120));
  const head = `HTTP ${f.status}${f.statusText ? ` ${f.statusText}` : ''}${f.status >= 500 ? ': the server failed' : ''}`;
  return { said: shown ? `${head}: ${shown}` : head };
}

/** `Bearer realm="x" resource_metadata="…"`: the scheme and the parameters that say what to do. */
function describeChallenge(header: string): string {
  const kept = [...header.matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)]
    .filter((m) => ['realm', 'resource_metadata', 'scope', 'error', 'error_description'].includes(m[1]!))
    .map((m) => `${m[1]}="${m[2] ?? m[3]}"`);
  return [/^\s*([A-Za-z][\w-]*)/.exec(header)?.[1] ?? '', ...kept].join(' ').trim();
}

const NOT_TRUSTED: [string, string] = [
  'TLS certificate not trusted',
  'to trust its CA, name it in NODE_EXTRA_CA_CERTS',
];
/** What each network code means, `@` standing for the address or host. */
const NETWORK: Record<string, [said: string, next?: string]> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: NOT_TRUSTED,
  SELF_SIGNED_CERT_IN_CHAIN: NOT_TRUSTED,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: NOT_TRUSTED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: NOT_TRUSTED,
  CERT_HAS_EXPIRED: ['TLS certificate expired'],
  CERT_NOT_YET_VALID: ['TLS certificate not yet valid'],
  ERR_TLS_CERT_ALTNAME_INVALID: ['TLS certificate names another host'],
  ERR_SSL_WRONG_VERSION_NUMBER: ['no TLS at @', 'is it an http:// URL?'],
  ECONNREFUSED: ['connection refused at @', 'is the server running?'],
  ENOTFOUND: ['host not found: @'],
  EAI_AGAIN: ['host lookup failed for @', 'is DNS reachable?'],
  ECONNRESET: ['connection reset by @'],
  EHOSTUNREACH: ['no route to @'],
  ENETUNREACH: ['no route to @'],
  UND_ERR_CONNECT_TIMEOUT: ['no connection to @ before the timeout'],
};

function networkCause(f: Unreachable, chain: unknown[], ctx: ExplainContext): Cause {
  const url = URL.canParse(ctx.url ?? '') ? new URL(ctx.url ?? '') : undefined;
  const where = f.where ?? url?.host ?? 'the server';
  const code = f.code ?? '';
  if (!code && chain.some((e) => messageOf(e) === 'bad port'))
    return {
      said: `fetch refuses to reach port ${url?.port || '?'} (bad port)`,
      next: 'serve on another port',
    };
  const [said, next] = NETWORK[code] ?? [];
  if (!said)
    return { said: code ? `cannot reach ${where}: ${messageOf(chain.at(-1))} (${code})` : f.message };
  // A certificate's complaint is its own message; a socket's only repeats the code and address.
  const text = said.startsWith('TLS')
    ? `${said}: ${f.message} (${code})`
    : `${said.replace('@', where)} (${code})`;
  return next ? { said: text, next } : { said: text };
}

function timeoutOf(chain: unknown[]): number | undefined {
  const e = chain.find((c): c is SdkError => c instanceof SdkError && c.code === SdkErrorCode.RequestTimeout);
  const ms = (e?.data as { timeout?: unknown } | undefined)?.timeout;
  return typeof ms === 'number' ? ms : undefined;
}

/**
 * The SDK's HTTP errors keep a refusal's status and body but not its headers, and a 401's
 * WWW-Authenticate says what the server wants. Give the transport this fetch to keep it.
 */
export function keepChallenge(base: FetchLike = fetch): {
  fetch: FetchLike;
  challenge(): string | undefined;
} {
  let last: string | undefined;
  const wrapped: FetchLike = async (url, init) => {
    const response = await base(url, init);
    if (response.status === 401 || response.status === 403)
      last = response.headers.get('www-authenticate') ?? last;
    return response;
  };
  return { fetch: wrapped, challenge: () => last };
}

const AUTH_PARAMS =
  '(?:realm|scope|error|error_description|resource_metadata|charset|nonce|opaque|algorithm|qop)';
const MASKS: [RegExp, string][] = [
  [/\b([a-z][\w+.-]*:\/\/)[^\s/@]+@/gi, '$1***@'],
  // Case matters: "token expired" is prose, "Token abc123" a credential.
  [
    new RegExp(`\\b([Bb]earer|[Bb]asic|Token|Digest)\\s+(?!${AUTH_PARAMS}\\s*=)[\\w.~+/=-]{4,}`, 'g'),
    '$1 ***',
  ],
  [
    /\b([\w-]*(?:token|secret|passw(?:or)?d|api[_-]?key|apikey)[\w-]*["']?\s*[=:]\s*["']?)[^\s"',;&]+/gi,
    '$1***',
  ],
  [/\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g, '***'],
  [/\b(?:gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk-)[\w-]{10,}/g, '***'],
];

/** `text` with every known value and everything shaped like a credential replaced by `***`. */
export function maskSecrets(text: string, known: string[] = []): string {
  // A header's scheme is not secret: only what follows it is masked.
  const values = known.map((v) => v.replace(/^\s*(?:Bearer|Basic|Token|Digest)\s+/i, '').trim());
  const masked = values.filter((v) => v.length >= 4);
  let out = [...new Set(masked)]
    .sort((a, b) => b.length - a.length)
    .reduce((t, v) => t.split(v).join('***'), text);
  for (const [pattern, replacement] of MASKS) out = out.replace(pattern, replacement);
  return out;
}

function field(e: unknown, name: string): string {
  const value = (e as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
