import { classifyFailure, type Failure } from '@warden-mcp/gate/connect';

export type JsonAnswer =
  | { ok: true; status: number; body: unknown; wwwAuthenticate: string | null }
  | { ok: false; failure: Failure };

/** A fetch that gives up after `timeoutMs`, so an unreachable host fails in seconds. */
export function timedFetch(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  };
}

/** GET a JSON document beside MCP with the caller's own headers; a non-JSON body reads as null. */
export async function getJson(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<JsonAnswer> {
  try {
    const res = await timedFetch(timeoutMs)(url, {
      headers: { accept: 'application/json', ...headers },
      redirect: 'manual',
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { ok: true, status: res.status, body, wwwAuthenticate: res.headers.get('www-authenticate') };
  } catch (err) {
    return { ok: false, failure: classifyFailure(err) };
  }
}
