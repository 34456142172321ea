import type { AuthInfo } from '@modelcontextprotocol/server';
import { replay } from '../http-io.ts';
import { ANSWERED, type Answered, type Step } from '../../core/pipeline.ts';
import type { Admitted, WithBody } from './exchange.ts';

/** The SDK's Node handler, with the caller attached (createMcpHandler reads it as authInfo). */
export type SdkHandler = (req: ReturnType<typeof replay>, res: WithBody['res']) => Promise<void>;

/** Last: everything the fast path did not take (initialize, discovery, notifications, the unusual). */
export function sdk(handle: SdkHandler): Step<WithBody, never> {
  return {
    name: 'sdk',
    async run(x): Promise<Answered> {
      await handle(replay(x.req, x.raw, authInfoFor(x.auth)), x.res);
      return ANSWERED;
    },
  };
}

function authInfoFor(auth: Admitted): AuthInfo {
  const caller = auth.caller;
  return {
    token: auth.kind === 'agent' ? auth.credential.token.id : 'anonymous',
    clientId: caller.kind === 'anonymous' ? 'anonymous' : caller.principal.handle,
    scopes: [...caller.permissions.effective],
    extra: { caller },
  };
}
