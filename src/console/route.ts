import type { Authed, Ctx } from './context.ts';
import type { SignedIn } from './session.ts';

interface RouteShape {
  method: 'GET' | 'POST';
  path: string | RegExp;
  /** A sign-in attempt: counted by the rate limit. */
  signIn?: true;
  /** A JSON body (the passkey ceremony), its CSRF token in the X-CSRF-Token header. */
  json?: true;
}

/**
 * A route anyone may use. Its handler is told the session, if any: `ctx.session` may be
 * null. A handler typed for a signed-in principal (`Authed`) cannot be wired here: the
 * compiler refuses it.
 */
interface PublicRoute extends RouteShape {
  access: 'public';
  run: (ctx: Ctx) => Promise<void> | void;
}

/**
 * principal: a signed-in principal; operator: answered "not found" to anyone else. The
 * handler runs only with a session, and its type says so (`ctx.session` is never null).
 */
interface SignedInRoute extends RouteShape {
  access: 'principal' | 'operator';
  run: (ctx: Authed) => Promise<void> | void;
}

/** One console route: who may use it, and what runs. */
export type Route = PublicRoute | SignedInRoute;

/** A request matched to its route. */
export type Routed = Ctx & { route: Route };

/**
 * A request cleared to reach its handler, public and signed-in told apart by type: only
 * the signed-in kind carries a session that is never null.
 */
export type Granted = Ctx &
  (
    | { access: 'public'; route: PublicRoute }
    | { access: 'signed-in'; route: SignedInRoute; session: SignedIn }
  );
