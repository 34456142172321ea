import { payloadTooLarge, readBody, sendJson } from '../http-io.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import type { Served, WithBody } from './exchange.ts';

/**
 * The body, read under the caller's bound: a caller without a credential gets the lower
 * one (nothing anonymous needs more). Over it: 413, and the connection is closed, which
 * stops reading the rest of an oversized body.
 */
export function readBounded(maxBody: number, anonymousMaxBody: number): Step<Served, WithBody> {
  return {
    name: 'read-body',
    async run(x) {
      const limit = x.auth.kind === 'anonymous' ? anonymousMaxBody : maxBody;
      const raw = await readBody(x.req, limit);
      if (raw !== null) return Object.assign(x, { raw });
      sendJson(x.res, 413, payloadTooLarge(limit), { Connection: 'close' });
      return ANSWERED;
    },
  };
}
