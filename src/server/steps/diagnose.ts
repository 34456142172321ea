import type { Registry } from '../../core/registry.ts';
import type { ToolContext } from '../../tools/index.ts';
import { headerShape } from '../auth.ts';
import { diagnosis } from '../diagnose.ts';
import { sendJson } from '../http-io.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { methodNotAllowed } from '../refusals.ts';
import type { Served } from './exchange.ts';

/** GET /diagnose: what this very caller gets and why (after the rate limit and the 401). */
export function diagnose(registry: Registry<ToolContext>): Step<Served> {
  return {
    name: 'diagnose',
    run(x) {
      if (x.path !== '/diagnose') return x;
      if (x.req.method !== 'GET') methodNotAllowed(x.res, 'GET');
      else
        sendJson(x.res, 200, diagnosis(x.auth, headerShape(x.req.headers.authorization), registry), {
          'Cache-Control': 'no-store',
        });
      return ANSWERED;
    },
  };
}
