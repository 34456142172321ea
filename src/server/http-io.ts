import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Small I/O pieces of the HTTP edge: bodies read under a bound, replayed to the SDK, JSON answers. */

/**
 * Reads a body under a bound; null when it is larger, declared or sent (the rest is
 * drained, not kept). The bound holds as the gate's reader holds it (@warden-mcp/gate/io),
 * but with events rather than `for await`: an async iterator costs several promises per
 * chunk, and on the hot path a body is one small chunk. A client that hangs up mid-body
 * rejects, as the iterator did.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve(null);
  }
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
      if (size <= max) return void chunks.push(chunk);
      stop();
      req.resume();
      resolve(null);
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
