import type { Route } from './route.ts';
import { mandatePage, mandatePost } from './pages/mandate.ts';
import { overviewPage } from './pages/overview.ts';
import { passkeysPage, removePasskey } from './pages/passkeys.ts';
import { decisionsPage, decisionsPost, reissuePost } from './pages/decisions.ts';
import { consultationsPage, evidencePage } from './pages/records.ts';
import { profilePage, profilePost } from './pages/profile.ts';
import { addCandidate, linkPost, operatorPage, principalDetail, statusPost } from './pages/operator.ts';
import { revokePost, tokenPreview, tokensPage, tokensPost } from './pages/tokens.ts';
import { registrationOptions, registrationVerify, signInOptions, signInVerify } from './passkeys.ts';
import { linkPage, signInPage, signOut, useLink } from './pages/signin.ts';
import { consentPage, consentPost } from './pages/consent.ts';
import { activityPage } from './pages/activity.ts';

const CONSENT = /^\/console\/oauth\/[A-Za-z0-9_-]{1,64}$/;

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/console/signin', access: 'public', run: signInPage },
  { method: 'GET', path: '/console/link', access: 'public', run: linkPage },
  { method: 'POST', path: '/console/link', access: 'public', signIn: true, run: useLink },
  { method: 'POST', path: '/console/signout', access: 'principal', run: signOut },
  { method: 'GET', path: '/console/', access: 'principal', run: overviewPage },
  { method: 'GET', path: '/console/mandate', access: 'principal', run: mandatePage },
  { method: 'POST', path: '/console/mandate', access: 'principal', run: mandatePost },
  { method: 'GET', path: '/console/tokens', access: 'principal', run: tokensPage },
  { method: 'POST', path: '/console/tokens', access: 'principal', run: tokensPost },
  { method: 'POST', path: '/console/tokens/preview', access: 'principal', run: tokenPreview },
  { method: 'POST', path: '/console/tokens/revoke', access: 'principal', run: revokePost },
  { method: 'GET', path: '/console/decisions', access: 'principal', run: decisionsPage },
  { method: 'GET', path: '/console/activity', access: 'principal', run: activityPage },
  { method: 'POST', path: '/console/decisions', access: 'principal', run: decisionsPost },
  { method: 'POST', path: '/console/decisions/reissue', access: 'principal', run: reissuePost },
  { method: 'GET', path: '/console/profile', access: 'principal', run: profilePage },
  { method: 'POST', path: '/console/profile', access: 'principal', run: profilePost },
  { method: 'GET', path: '/console/evidence', access: 'principal', run: evidencePage },
  { method: 'GET', path: '/console/consultations', access: 'principal', run: consultationsPage },
  { method: 'GET', path: '/console/operator', access: 'operator', run: (c) => operatorPage(c) },
  { method: 'POST', path: '/console/operator/add', access: 'operator', run: addCandidate },
  { method: 'GET', path: '/console/operator/principal', access: 'operator', run: principalDetail },
  { method: 'POST', path: '/console/operator/status', access: 'operator', run: statusPost },
  { method: 'POST', path: '/console/operator/link', access: 'operator', run: linkPost },
  { method: 'GET', path: '/console/passkeys', access: 'principal', run: (c) => passkeysPage(c) },
  // Public: without a session the page offers sign-in and comes back; choosing needs one.
  { method: 'GET', path: CONSENT, access: 'public', run: consentPage },
  { method: 'POST', path: CONSENT, access: 'principal', run: consentPost },
  { method: 'POST', path: '/console/passkeys/remove', access: 'principal', run: removePasskey },
  {
    method: 'POST',
    path: '/console/passkey/register/options',
    access: 'principal',
    json: true,
    run: registrationOptions,
  },
  {
    method: 'POST',
    path: '/console/passkey/register/verify',
    access: 'principal',
    json: true,
    run: registrationVerify,
  },
  {
    method: 'POST',
    path: '/console/passkey/signin/options',
    access: 'public',
    signIn: true,
    json: true,
    run: signInOptions,
  },
  {
    method: 'POST',
    path: '/console/passkey/signin/verify',
    access: 'public',
    signIn: true,
    json: true,
    run: signInVerify,
  },
];
