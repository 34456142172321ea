import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { hashSecret } from '../admin/console-links.ts';
import { isIpLiteral } from '../core/public-origin.ts';
import type { ConsoleRefusalCode, Refusal } from '../core/refusal.ts';
import type { Authed, Ctx } from './context.ts';
import { html, type Html } from './html.ts';
import { passkeyName } from './passkey-names.ts';
import { startSession } from './session.ts';
import { sendJsonBody } from './web.ts';

/**
 * The passkey ceremonies (WebAuthn, through @simplewebauthn/server). Challenges live
 * in the store (hashed, five minutes, taken once), so any replica can finish a
 * ceremony another began. The relying party is the server's public origin.
 */
const CHALLENGE_MS = 5 * 60_000;
const LABEL = /^[\p{L}\p{N} ._:@/()'-]{1,64}$/u;

interface Party {
  origin: string;
  rpID: string;
}

/**
 * The relying party is the server's public origin, the one every link and redirect is built
 * from; the server sends a request at any other of its names there before the console runs.
 */
function party(ctx: Ctx): Party {
  const own = new URL(ctx.base);
  return { origin: own.origin, rpID: own.hostname };
}

/**
 * What a page that offers passkeys says when the server's public origin is an IP address,
 * where no passkey can work: WebAuthn takes a host name as its relying party, never an
 * address, so the browser refuses before asking for anything. Sign-in links still work; a
 * name is the operator's to configure. Nothing when the public origin is a name.
 */
export function passkeyHostNotice(ctx: Ctx): Html {
  const { rpID } = party(ctx);
  if (!isIpLiteral(rpID)) return html``;
  return html`<div class="warning" role="note" id="passkey-host">
    <p>
      <strong>Passkeys do not work at this address.</strong> Browsers accept a passkey only for a host name,
      and this club's console is at the IP address ${rpID}. Ask the club's operator to give the console a name
      (its public URL).
    </p>
    <p>A sign-in link from the operator works at this address.</p>
  </div>`;
}

function refuse(ctx: Ctx, status: number, code: ConsoleRefusalCode, reason: string, next: string): void {
  sendJsonBody(ctx.res, status, { refusal: { code, reason, next } });
}

function parseBody<T>(ctx: Ctx): T | null {
  try {
    const v = JSON.parse(ctx.body) as unknown;
    return v !== null && typeof v === 'object' ? (v as T) : null;
  } catch {
    return null;
  }
}

async function saveChallenge(ctx: Ctx, challenge: string, purpose: string, principalId: string | null) {
  await ctx.deps.store.saveChallenge({
    hash: hashSecret(challenge),
    purpose,
    principalId,
    expiresAt: new Date(ctx.now.getTime() + CHALLENGE_MS).toISOString(),
  });
}

/** A challenge checker that spends the challenge: it answers true once, for the right purpose and principal. */
function spend(ctx: Ctx, purpose: string, principalId: string | null) {
  return async (challenge: string) => {
    const taken = await ctx.deps.store.takeChallenge(hashSecret(challenge), purpose, ctx.now.toISOString());
    return taken !== null && taken.principalId === principalId;
  };
}

export async function registrationOptions(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const { rpID } = party(ctx);
  const existing = await ctx.deps.store.listPasskeys(me.id);
  const options = await generateRegistrationOptions({
    rpName: 'Warden club console',
    rpID,
    userName: me.handle,
    userID: new TextEncoder().encode(me.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await saveChallenge(ctx, options.challenge, 'register', me.id);
  sendJsonBody(ctx.res, 200, options);
}

export async function registrationVerify(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const body = parseBody<{ response?: RegistrationResponseJSON; label?: unknown }>(ctx);
  if (!body?.response)
    return refuse(ctx, 400, 'invalid_value', 'The passkey response is missing.', 'Try again.');
  const given = typeof body.label === 'string' ? body.label.trim() : '';
  if (given && !LABEL.test(given)) {
    return refuse(
      ctx,
      400,
      'invalid_value',
      "A passkey name is 1 to 64 letters, digits, spaces or . _ : @ / ( ) ' -.",
      'Choose a shorter or plainer name.',
    );
  }
  const { origin, rpID } = party(ctx);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: body.response,
      expectedChallenge: spend(ctx, 'register', me.id),
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (err) {
    return refuse(
      ctx,
      400,
      'passkey_rejected',
      `The passkey could not be verified: ${err instanceof Error ? err.message : 'unknown reason'}`,
      'Start again from the Passkeys page.',
    );
  }
  if (!verified.verified) {
    return refuse(ctx, 400, 'passkey_rejected', 'The passkey could not be verified.', 'Start again.');
  }
  const c = verified.registrationInfo.credential;
  // Named as the person asked; else after its provider, when the authenticator says which; else its browser.
  const label = passkeyName(given, verified.registrationInfo.aaguid, ctx.req.headers['user-agent']);
  if (await ctx.deps.store.getPasskey(c.id)) {
    return refuse(ctx, 409, 'conflict', 'This passkey is registered already.', 'Nothing to do.');
  }
  await ctx.deps.store.addPasskey({
    id: c.id,
    principalId: me.id,
    publicKey: Buffer.from(c.publicKey).toString('base64url'),
    counter: c.counter,
    transports: c.transports ?? [],
    label,
  });
  sendJsonBody(ctx.res, 200, { next: '/console/passkeys?done=added' });
}

export async function signInOptions(ctx: Ctx): Promise<void> {
  const { rpID } = party(ctx);
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
  await saveChallenge(ctx, options.challenge, 'signin', null);
  sendJsonBody(ctx.res, 200, options);
}

const UNKNOWN_PASSKEY: Refusal<ConsoleRefusalCode> = {
  code: 'passkey_unknown',
  reason: 'This passkey is not registered with the club (it may have been removed).',
  next: 'Sign in with a link from the operator, then register a passkey again.',
};

export async function signInVerify(ctx: Ctx): Promise<void> {
  const response = parseBody<AuthenticationResponseJSON>(ctx);
  if (!response || typeof response.id !== 'string') {
    return refuse(ctx, 400, 'invalid_value', 'The passkey response is missing.', 'Try again.');
  }
  const passkey = await ctx.deps.store.getPasskey(response.id);
  if (!passkey) return refuse(ctx, 400, UNKNOWN_PASSKEY.code, UNKNOWN_PASSKEY.reason, UNKNOWN_PASSKEY.next);
  const { origin, rpID } = party(ctx);
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: spend(ctx, 'signin', null),
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
  } catch (err) {
    return refuse(
      ctx,
      400,
      'passkey_rejected',
      `The passkey could not be verified: ${err instanceof Error ? err.message : 'unknown reason'}`,
      'Try again, or sign in with a link.',
    );
  }
  if (!result.verified) {
    return refuse(ctx, 400, 'passkey_rejected', 'The passkey could not be verified.', 'Try again.');
  }
  const p = await ctx.deps.store.getPrincipalById(passkey.principalId);
  if (!p || p.status === 'suspended') {
    return refuse(
      ctx,
      403,
      'suspended',
      'Your membership is suspended; the console is closed to you until the club reinstates you.',
      'Contact the club.',
    );
  }
  await ctx.deps.store.usePasskey(passkey.id, result.authenticationInfo.newCounter, ctx.now.toISOString());
  const cookie = await startSession(ctx.deps.store, ctx.req, p.id, ctx.sessions, ctx.now);
  sendJsonBody(ctx.res, 200, { next: '/console/' }, { 'Set-Cookie': cookie });
}
