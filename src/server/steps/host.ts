import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { hostAllowed, type GuardConfig } from '../guards.ts';
import { forbiddenHost } from '../refusals.ts';
import type { Exchange, Site } from './exchange.ts';

/** Distinct Host values remembered: a client cycling through more only costs a parse each. */
const REMEMBERED_HOSTS = 64;

/** First of all: on a loopback bind, a Host naming anything else is DNS rebinding (403). */
export function hostGuard(site: Site): Step<Exchange> {
  // Parsing the Host as a URL costs more than the rest of this step; a client sends the
  // same one every time, so the verdict is kept per value (for the guard it was made under).
  let memoOf: GuardConfig | null = null;
  const memo = new Map<string | undefined, boolean>();
  return {
    name: 'host',
    run(x) {
      const host = x.req.headers.host;
      if (memoOf !== site.guard || memo.size >= REMEMBERED_HOSTS) {
        memo.clear();
        memoOf = site.guard;
      }
      let ok = memo.get(host);
      if (ok === undefined) memo.set(host, (ok = hostAllowed(host, site.guard)));
      if (ok) return x;
      forbiddenHost(x.res);
      return ANSWERED;
    },
  };
}
