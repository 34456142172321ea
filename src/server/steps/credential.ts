import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { unauthorized } from '../refusals.ts';
import { resourceMetadataUrl, type Authenticated, type Served, type Site } from './exchange.ts';

/** A credential that is there but bad is a loud 401, never a downgrade to anonymous. */
export function refuseRejectedCredential(site: Site): Step<Authenticated, Served> {
  return {
    name: 'rejected-credential',
    run(x) {
      const auth = x.auth;
      if (auth.kind !== 'rejected') return Object.assign(x, { auth });
      unauthorized(x.res, auth, resourceMetadataUrl(site));
      return ANSWERED;
    },
  };
}
