import type { Refusal } from '../../core/refusal.ts';
import { when } from '../dates.ts';
import { html } from '../html.ts';
import { browserName } from '../passkey-names.ts';
import { passkeyHostNotice } from '../passkeys.ts';
import { csrfField, noticeBox, refusalBox } from '../layout.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';
import { redirect } from '../web.ts';

const NOTICES: Record<string, string> = {
  welcome: 'You are signed in. Register a passkey now, and next time you sign in with it instead of a link.',
  added: 'Passkey registered. You can sign in with it from now on.',
  removed: 'Passkey removed. It no longer signs you in.',
};

/**
 * Lists the principal's passkeys by name (each removable) and registers a new one (the one step
 * needing JavaScript), named as the person chooses or else after its provider or browser.
 */
export async function passkeysPage(ctx: Authed, refusal?: Refusal) {
  const keys = await ctx.deps.store.listPasskeys(ctx.session.principal.id);
  const suggested = browserName(ctx.req.headers['user-agent']);
  const done = ctx.query.get('done');
  const next =
    done === 'added'
      ? html`<section aria-labelledby="next">
          <h2 id="next">Next</h2>
          <p>
            Give your agent a way in: <a href="/console/tokens">issue a token</a> with only the permissions it
            needs. Or see everything at a glance on the <a href="/console/">overview</a>.
          </p>
        </section>`
      : '';
  const body = html`${noticeBox(NOTICES[done ?? ''])}${refusal ? refusalBox(refusal) : ''}${next}
    <section aria-labelledby="yours">
      <h2 id="yours">Your passkeys</h2>
      ${
        keys.length === 0
          ? html`<p>None yet.</p>`
          : html`<div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Registered</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Remove</th>
                  </tr>
                </thead>
                <tbody>
                  ${keys.map(
                    (k) =>
                      html`<tr>
                        <th scope="row">${k.label}</th>
                        <td data-label="Registered">${when(k.createdAt, ctx.now)}</td>
                        <td data-label="Last used">${when(k.lastUsedAt, ctx.now)}</td>
                        <td>
                          <form method="post" action="/console/passkeys/remove" class="inline">
                            ${csrfField(ctx.session)}<input type="hidden" name="id" value="${k.id}" /><button
                              type="submit"
                              class="secondary"
                              aria-label="Remove passkey ${k.label}"
                            >
                              Remove
                            </button>
                          </form>
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>
    <section aria-labelledby="add">
      <h2 id="add">Register a passkey on this device</h2>
      ${passkeyHostNotice(ctx)}
      <div class="field">
        <label for="passkey-label">Name for this passkey</label>
        <input
          type="text"
          id="passkey-label"
          name="label"
          maxlength="64"
          placeholder="${suggested}"
          aria-describedby="passkey-label-hint"
          autocomplete="off"
        />
        <p class="hint" id="passkey-label-hint">
          Optional: a name you will recognise when you see your passkeys listed here. Left empty, it is named
          after the passkey provider when your browser says which it is (iCloud Keychain, Google Password
          Manager, 1Password, a YubiKey…), or else “${suggested}”.
        </p>
      </div>
      <button
        type="button"
        id="passkey-register"
        data-csrf="${ctx.session.csrf}"
        data-options="/console/passkey/register/options"
        data-verify="/console/passkey/register/verify"
      >
        Register a passkey
      </button>
      <p id="passkey-status" role="status" aria-live="polite"></p>
      <noscript
        ><p>
          Registering a passkey needs JavaScript; everything else in the console works without it.
        </p></noscript
      >
    </section>
    <script src="/console/assets/webauthn.js"></script>
    <script src="/console/assets/passkey.js"></script>`;
  await sendPage(ctx, 'Passkeys', 'passkeys', body, refusal ? 400 : 200);
}

export async function removePasskey(ctx: Authed): Promise<void> {
  const removed = await ctx.deps.store.deletePasskey(ctx.form.get('id') ?? '', ctx.session.principal.id);
  if (!removed) {
    return passkeysPage(ctx, {
      code: 'not_found',
      reason: 'That passkey is not one of yours, or it was removed already.',
      next: 'Nothing to do.',
    });
  }
  redirect(ctx.res, '/console/passkeys?done=removed');
}
