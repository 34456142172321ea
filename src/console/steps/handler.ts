import { ANSWERED, type Answered, type Step } from '../../core/pipeline.ts';
import type { Granted } from '../route.ts';

/** Last: the page's own handler, given a session only where its route promised one. */
export function runHandler(): Step<Granted, never> {
  return {
    name: 'handler',
    async run(ctx): Promise<Answered> {
      if (ctx.access === 'public') await ctx.route.run(ctx);
      else await ctx.route.run(ctx);
      return ANSWERED;
    },
  };
}
