import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { overviewPage } from '../../src/console/pages/overview.ts';
import { signInPage } from '../../src/console/pages/signin.ts';
import type { Route } from '../../src/console/route.ts';
import { ROUTES } from '../../src/console/routes.ts';

describe('console routes: public or signed-in, by type', () => {
  it('a handler that needs a session cannot be wired as public: the compiler refuses it', () => {
    // @ts-expect-error -- overviewPage takes an Authed (a session that is never null).
    const wrong: Route = { method: 'GET', path: '/console/x', access: 'public', run: overviewPage };
    // A public page's handler may serve a signed-in route too: it copes without a session.
    const fine: Route = { method: 'GET', path: '/console/y', access: 'principal', run: signInPage };
    assert.equal(wrong.access, 'public');
    assert.equal(fine.access, 'principal');
  });

  it('the routes anyone may use are these, and only these', () => {
    const open = ROUTES.filter((r) => r.access === 'public').map((r) => `${r.method} ${String(r.path)}`);
    assert.deepEqual(open, [
      'GET /console/signin',
      'GET /console/link',
      'POST /console/link',
      'GET /^\\/console\\/oauth\\/[A-Za-z0-9_-]{1,64}$/',
      'POST /console/passkey/signin/options',
      'POST /console/passkey/signin/verify',
    ]);
  });

  it('no two routes answer the same method and path', () => {
    const keys = ROUTES.map((r) => `${r.method} ${String(r.path)}`);
    assert.equal(new Set(keys).size, keys.length);
  });
});
