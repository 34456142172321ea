import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { briefError } from './list-as-sent.ts';

/** Why a connection failed, in the doctor's terms rather than the SDK's. */
export type Failure =
  | { kind: 'unauthorized'; status: number; body: string; message: string }
  | { kind: 'http'; status: number; body: string; message: string }
  | { kind: 'unreachable'; message: string }
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
    const said = /"error_description"\s*:\s*"([^"]{1,200})"/.exec(body)?.[1];
    const message = `HTTP ${err.status} ${err.statusText ?? ''}`.trim() + (said ? ` (${said})` : '');
    return { kind, status: err.status, body, message };
  }
  const chain = causes(err);
  const timedOut = chain.some(
    (e) =>
      (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) ||
      (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')),
  );
  if (timedOut) return { kind: 'timeout', message: 'no answer before the timeout' };
  const network = chain.find((e) => NETWORK_CODES.has(codeOf(e)));
  if (network) return { kind: 'unreachable', message: `${codeOf(network)}: ${messageOf(network)}` };
  if (chain.some((e) => e instanceof TypeError && e.message === 'fetch failed'))
    return { kind: 'unreachable', message: messageOf(chain[chain.length - 1]) };
  return { kind: 'protocol', message: briefError(err) };
}

function causes(err: unknown): unknown[] {
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

function codeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
