import { sendJson } from '../http-io.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { screenPost } from '../screen.ts';
import type { Parsed, WithBody } from './exchange.ts';

/** Depth, syntax, batches and missing params, checked before anything parses the body for real. */
export function screen(): Step<WithBody, Parsed> {
  return {
    name: 'screen',
    run(x) {
      const screened = screenPost(x.req.headers, x.raw);
      if (screened.ok) return Object.assign(x, { message: screened.message });
      sendJson(x.res, screened.status, screened.body);
      return ANSWERED;
    },
  };
}
