import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { originAllowed } from '../guards.ts';
import { forbiddenOrigin } from '../refusals.ts';
import type { Exchange, Site } from './exchange.ts';

/** A browser page on a foreign origin reaches nothing, side endpoints included (403). */
export function originGuard(site: Site): Step<Exchange> {
  return {
    name: 'origin',
    run(x) {
      if (originAllowed(x.req.headers.origin, site.guard)) return x;
      forbiddenOrigin(x.res);
      return ANSWERED;
    },
  };
}
