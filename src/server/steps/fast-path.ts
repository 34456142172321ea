import { classifyFast, type FastBody, type FastPath } from '../fast-path.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import type { Parsed } from './exchange.ts';

/**
 * tools/list and tools/call, well formed and unambiguous, answered from descriptors
 * serialised once (fast-path.ts); anything doubtful is handed on to the SDK.
 */
export function fastPath(fast: FastPath | null): Step<Parsed> {
  return {
    name: 'fast-path',
    run(x) {
      const request = fast ? classifyFast(x.req.headers, x.message) : null;
      if (!fast || !request) return x;
      const answer = fast(request, x.auth.caller);
      if (answer instanceof Promise) return answer.then((body) => send(x, body));
      return send(x, answer);
    },
  };
}

/**
 * Writes the body after its headers: the shared bytes as they are, the request's own text
 * encoded by the socket's write (no Buffer made for it); Node sends headers and body in
 * one writev at `end`. The answer is this caller's alone: no cache may keep it.
 */
function send(x: Parsed, body: FastBody): typeof ANSWERED {
  const { shared, own } = body;
  const length = (shared === null ? 0 : shared.length) + Buffer.byteLength(own);
  x.res.writeHead(200, [
    'Content-Type',
    'application/json',
    'Content-Length',
    String(length),
    'Cache-Control',
    'no-store',
    'X-Content-Type-Options',
    'nosniff',
  ]);
  if (shared !== null) x.res.write(shared);
  x.res.end(own);
  return ANSWERED;
}
