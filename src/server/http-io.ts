import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Small I/O pieces of the HTTP edge: bodies read under a bound, replayed to the SDK, JSON answers. */

/**
 * The body, when the parser is already done with it: taken at once, with no listener,
 * promise or await. That is the case whenever a step before waited on I/O (a store over
 * the network, the shared rate limit in the store): Node parses a body on a later turn
 * of the event loop than its headers, so after mere promise ticks (SQLite on this
 * machine) it is still on its way and this gives `undefined`: read it with readBody.
 * Null: over `max`.
 */
export function arrivedBody(req: IncomingMessage, max: number): Buffer | null | undefined {
  if (!req.complete || req.readableFlowing === true) return undefined;
  const raw = (req.read() as Buffer | null) ?? EMPTY;
  if (raw.length <= max) return raw;
  req.resume();
  return null;
}

const EMPTY = Buffer.alloc(0);

/** What readBody gives when its `refuse` said no to a chunk: nothing more was read or kept. */
export const REFUSED: unique symbol = Symbol('refused');

/**
 * Reads a body under a bound; null when it is larger, declared or sent (the rest is
 * drained, not kept). The bound holds as the gate's reader holds it (@warden-mcp/gate/io),
 * but with events rather than `for await`: an async iterator costs several promises per
 * chunk. `refuse`, if given, sees each chunk as it arrives; when it says so, reading
 * stops there (REFUSED). A client that hangs up mid-body rejects, as the iterator did.
 */
export function readBody(
  req: IncomingMessage,
  max: number,
  refuse?: (chunk: Buffer) => boolean,
): Promise<Buffer | null | typeof REFUSED> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve(null);
  }
  const arrived = arrivedBody(req, max);
  if (arrived !== undefined) return Promise.resolve(arrived && refuse?.(arrived) ? REFUSED : arrived);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      const refused = size <= max && refuse?.(chunk) === true;
      if (size <= max && !refused) return void chunks.push(chunk);
      stop();
      req.resume();
      resolve(refused ? REFUSED : null);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    const onClose = () => {
      stop();
      reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

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
