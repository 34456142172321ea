import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { mcpMethodNotAllowed } from '../refusals.ts';
import type { Served } from './exchange.ts';

/**
 * /mcp serves POST only (stateless: no GET stream, no DELETE of a session). Every other
 * method gets 405 with Allow: POST here, in the SDK's own words, before anything reads a
 * body; none reaches the SDK's adapter, which could not represent TRACE and threw.
 */
export function postOnly(): Step<Served> {
  return {
    name: 'post-only',
    run(x) {
      if (x.req.method === 'POST') return x;
      mcpMethodNotAllowed(x.res);
      return ANSWERED;
    },
  };
}
