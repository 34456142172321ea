import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Small I/O pieces of the HTTP edge: bodies read under a bound, replayed to the SDK, JSON answers. */

/** Bodies are read under a bound the same way here and in the gate's HTTP proxy. */
export { readBody } from '@warden-mcp/gate/io';

/** The request again, its body already read, for the SDK's Node adapter (which reads it as a stream). */
export function replay(req: IncomingMessage, raw: Buffer, auth: AuthInfo) {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    auth,
    async *[Symbol.asyncIterator]() {
      yield raw;
    },
  };
}

/** Same body as the SDK's own 413, so clients see one answer whichever path read the body. */
export function payloadTooLarge(max: number) {
  return {
    jsonrpc: '2.0',
    error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${max} bytes` },
    id: null,
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(text);
}
