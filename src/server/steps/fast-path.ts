import { classifyFast, type FastPath } from '../fast-path.ts';
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
      if (answer instanceof Promise) return answer.then((parts) => send(x, parts));
      return send(x, answer);
    },
  };
}

/** Writes the parts in order; Node sends them with the headers in one writev at `end`. */
function send(x: Parsed, parts: Buffer[]): typeof ANSWERED {
  let length = 0;
  for (const part of parts) length += part.length;
  x.res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(length) });
  const last = parts.length - 1;
  for (let i = 0; i < last; i++) x.res.write(parts[i]);
  x.res.end(parts[last]);
  return ANSWERED;
}
