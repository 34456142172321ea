import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { notFound } from '../refusals.ts';
import { MCP_PATH, SIGN_IN_PATH, type Exchange } from './exchange.ts';

/**
 * Past the side endpoints, only /mcp and /diagnose go on (to authentication), and
 * /mcp/sign-in when the server is its own authorization server; anything else is 404.
 */
export function mcpPathsOnly(signIn = false): Step<Exchange> {
  return {
    name: 'mcp-paths-only',
    run(x) {
      if (x.path === MCP_PATH || x.path === '/diagnose' || (signIn && x.path === SIGN_IN_PATH)) return x;
      notFound(x.res, x.path, MCP_PATH);
      return ANSWERED;
    },
  };
}
