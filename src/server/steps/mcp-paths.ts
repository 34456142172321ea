import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { notFound } from '../refusals.ts';
import { MCP_PATH, type Exchange } from './exchange.ts';

/** Past the side endpoints, only /mcp and /diagnose go on (to authentication); anything else is 404. */
export function mcpPathsOnly(): Step<Exchange> {
  return {
    name: 'mcp-paths-only',
    run(x) {
      if (x.path === MCP_PATH || x.path === '/diagnose') return x;
      notFound(x.res, x.path, MCP_PATH);
      return ANSWERED;
    },
  };
}
