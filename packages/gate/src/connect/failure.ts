import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { briefError } from './list-as-sent.ts';

/** Why a connection failed, in the doctor's terms rather than the SDK's. */
export type Failure =
  | { kind: 'unauthorized'; status: number; statusText: string; body: string; message: string }
  | { kind: 'http'; status: number; statusText: string; body: string; message: string }
  | {
      kind: 'unreachable';
      message: string;
      /** The network's own code: ECONNREFUSED, ENOTFOUND, DEPTH_ZERO_SELF_SIGNED_CERT… */
      code?: string;
      /** What could not be reached, as the error names it: `127.0.0.1:3000` or a host name. */
      where?: string;
    }
  | { kind: 'timeout'; message: string }
  | { kind: 'protocol'; message: string };

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ENOENT',
  'EACCES',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** Classifies an error thrown by connect/listTools, walking its causes for the network's own code. */
export function classifyFailure(err: unknown): Failure {
  if (err instanceof SdkHttpError) {
    const body = typeof err.data.text === 'string' ? err.data.text : '';
    const kind = err.status === 401 ? 'unauthorized' : 'http';
    const said = errorDescription(body);
    const statusText = err.statusText ?? '';
    const message = `HTTP ${err.status} ${statusText}`.trim() + (said ? ` (${said})` : '');
    return { kind, status: err.status, statusText, body, message };
  }
  const chain = causeChain(err);
  const timedOut = chain.some(
    (e) =>
      (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) ||
      (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')),
  );
  if (timedOut) return { kind: 'timeout', message: 'no answer before the timeout' };
  const network = chain.find((e) => NETWORK_CODES.has(codeOf(e)));
  if (network) return unreachable(network, `${codeOf(network)}: ${messageOf(network)}`);
  if (chain.some((e) => e instanceof TypeError && e.message === 'fetch failed'))
    return unreachable(chain[chain.length - 1], messageOf(chain[chain.length - 1]));
  return { kind: 'protocol', message: briefError(err) };
}

function unreachable(e: unknown, message: string): Failure {
  const code = codeOf(e);
  // Connecting to a name with several addresses fails with an AggregateError of one error each.
  const first = (e as { errors?: unknown[] } | null)?.errors?.[0] ?? e;
  const address = stringField(first, 'address');
  const port = (first as { port?: unknown } | null)?.port;
  const host = address.includes(':') ? `[${address}]` : address;
  const where = host ? (typeof port === 'number' ? `${host}:${port}` : host) : stringField(e, 'hostname');
  return { kind: 'unreachable', message, ...(code ? { code } : {}), ...(where ? { where } : {}) };
}

/** The OAuth `error_description` of a refusal's JSON body: the server's own words for why. */
export function errorDescription(body: string): string | undefined {
  return /"error_description"\s*:\s*"([^"]{1,200})"/.exec(body)?.[1];
}

/** The error and its causes, outermost first: the SDK wraps the network's error one or two deep. */
export function causeChain(err: unknown): unknown[] {
  const seen: unknown[] = [];
  let current: unknown = err;
  while (current !== undefined && current !== null && !seen.includes(current) && seen.length < 10) {
    seen.push(current);
    const next = (current as { cause?: unknown }).cause;
    const dataCause = (current as { data?: { cause?: unknown } }).data?.cause;
    current = next ?? dataCause;
  }
  return seen;
}

/** The `code` of a Node system error (ECONNREFUSED, ENOENT…), or ''. */
export function codeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function stringField(e: unknown, name: string): string {
  const value = (e as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
