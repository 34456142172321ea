import { DepthWatch, tooDeep } from '../depth.ts';
import { arrivedBody, payloadTooLarge, readBody, REFUSED, sendJson } from '../http-io.ts';
import { ANSWERED, type Answered, type Step } from '../../core/pipeline.ts';
import type { Served, WithBody } from './exchange.ts';

/**
 * The body, read under the caller's bound: a caller without a credential gets the lower
 * one (nothing anonymous needs more). Over it: 413, and the connection is closed, which
 * stops reading the rest of an oversized body. A body still arriving is watched for
 * nesting as it comes: too deep, it is refused (400) on the chunk that shows it, and the
 * connection is closed too, so a flood of brackets is not read a megabyte at a time.
 */
export function readBounded(maxBody: number, anonymousMaxBody: number): Step<Served, WithBody> {
  return {
    name: 'read-body',
    run(x) {
      const limit = x.auth.kind === 'anonymous' ? anonymousMaxBody : maxBody;
      // A body the parser is done with is taken at once (no await); otherwise, wait for it.
      const declared = Number(x.req.headers['content-length']);
      const arrived = declared > limit ? null : arrivedBody(x.req, limit);
      if (arrived === undefined) {
        const depth = new DepthWatch();
        return readBody(x.req, limit, (chunk) => depth.deeper(chunk)).then((raw) =>
          raw === REFUSED ? refuseTooDeep(x) : take(x, raw, limit),
        );
      }
      if (arrived === null) x.req.resume();
      return take(x, arrived, limit);
    },
  };
}

function refuseTooDeep(x: Served): Answered {
  sendJson(x.res, 400, tooDeep(), { Connection: 'close' });
  return ANSWERED;
}

function take(x: Served, raw: Buffer | null, limit: number): WithBody | Answered {
  if (raw !== null) return Object.assign(x, { raw });
  sendJson(x.res, 413, payloadTooLarge(limit), { Connection: 'close' });
  return ANSWERED;
}
