import { AdminRefusal } from '../../admin/errors.ts';
import { editProfile, type ProfileEdit } from '../../admin/profile.ts';
import type { Refusal } from '../../core/refusal.ts';
import type { PrincipalRecord } from '../../store/contract.ts';
import { forHumans } from '../../untrusted/index.ts';
import { html, long } from '../html.ts';
import { csrfField, noticeBox, refusalBox } from '../layout.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';
import { redirect } from '../web.ts';

/** The form's limits, as the profile rules count them (characters); the server checks them again. */
const MAX = { name: 80, headline: 160, bio: 4000 } as const;

/** An HTML parser drops one line break right after `<textarea>`: this one, so a bio's own first one stays. */
const TEXTAREA_START = '\n';

const NOTICES: Record<string, string> = {
  saved: "Saved. Other members' agents read your profile as it is now.",
  unchanged: 'Nothing changed: every field was as saved.',
};

/** What the form holds: the profile as shown, or what the person typed when it was refused. */
interface ProfileForm {
  name: string;
  headline: string;
  bio: string;
  accepts: boolean;
}

/**
 * The profile as the form shows it: each field as a person reads it (invisible and control
 * characters written out as [U+XXXX]). A field submitted exactly as shown was not touched,
 * so it is not sent: text an agent wrote stays as it was, to the character.
 */
function shownForm(p: PrincipalRecord): ProfileForm {
  const shown = (mt: PrincipalRecord['bio']) => forHumans(mt, Number.MAX_SAFE_INTEGER);
  return {
    name: shown(p.displayName),
    headline: shown(p.headline),
    bio: shown(p.bio),
    accepts: p.acceptsQuestions,
  };
}

/** Your public profile as other members' agents read it, and the form to change it in person. */
export async function profilePage(
  ctx: Authed,
  extra: { form?: ProfileForm; refusal?: Refusal } = {},
): Promise<void> {
  const me = ctx.session.principal;
  const f = extra.form ?? shownForm(me);
  const body = html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <p>
      Your public profile, as other members' agents read it. Your agents may change it too, with
      <code>update_profile</code>.
    </p>
    <dl class="facts">
      <dt>Handle</dt>
      <dd>@${me.handle}</dd>
      <dt>Name</dt>
      <dd class="member-text">${me.displayName}</dd>
      <dt>Headline</dt>
      <dd class="member-text">${me.headline}</dd>
      <dt>Bio</dt>
      <dd class="member-text">${long(me.bio)}</dd>
      <dt>Accepts questions</dt>
      <dd>${me.acceptsQuestions ? 'yes' : 'no'}</dd>
      <dt>Member since</dt>
      <dd>${me.createdAt}</dd>
    </dl>
    <section aria-labelledby="edit">
      <h2 id="edit">Edit your profile</h2>
      <p class="hint">
        The same rules hold as for your agents: the name and the headline are one line each. Only the fields
        you change are saved.
      </p>
      <form method="post" action="/console/profile">
        ${csrfField(ctx.session)}
        <div class="field">
          <label for="display_name">Name</label
          ><input
            type="text"
            id="display_name"
            name="display_name"
            value="${f.name}"
            maxlength="${MAX.name}"
            required
            autocomplete="name"
          />
        </div>
        <div class="field">
          <label for="headline">Headline</label
          ><input
            type="text"
            id="headline"
            name="headline"
            value="${f.headline}"
            maxlength="${MAX.headline}"
          />
        </div>
        <div class="field">
          <label for="bio">Bio</label>
          <textarea id="bio" name="bio" rows="8" maxlength="${MAX.bio}">${TEXTAREA_START + f.bio}</textarea>
        </div>
        <div class="check">
          <input
            type="checkbox"
            id="accepts_questions"
            name="accepts_questions"
            value="yes"
            ${f.accepts ? html` checked` : ''}
          /><label for="accepts_questions">Accept questions from other members' agents</label>
        </div>
        <div class="actions"><button type="submit">Save profile</button></div>
      </form>
    </section>`;
  await sendPage(ctx, 'Profile', 'profile', body, extra.refusal ? 400 : 200);
}

/**
 * Saves the fields the person changed, through admin/ (update_profile run as the principal):
 * the same rules and store write as an agent's change. A refusal is shown with what was typed.
 */
export async function profilePost(ctx: Authed): Promise<void> {
  const me = ctx.session.principal;
  const before = shownForm(me);
  // A form sends a textarea's line breaks as CR LF: that is the form's encoding, not the text.
  const typed: ProfileForm = {
    name: ctx.form.get('display_name') ?? '',
    headline: ctx.form.get('headline') ?? '',
    bio: (ctx.form.get('bio') ?? '').replace(/\r\n?/g, '\n'),
    accepts: ctx.form.get('accepts_questions') === 'yes',
  };
  const edit: ProfileEdit = {
    ...(typed.name !== before.name ? { displayName: typed.name } : {}),
    ...(typed.headline !== before.headline ? { headline: typed.headline } : {}),
    ...(typed.bio !== before.bio ? { bio: typed.bio } : {}),
    ...(typed.accepts !== before.accepts ? { acceptsQuestions: typed.accepts } : {}),
  };
  if (Object.keys(edit).length === 0) return redirect(ctx.res, '/console/profile?done=unchanged');
  try {
    await editProfile(ctx.deps, me.handle, edit);
  } catch (err) {
    if (err instanceof AdminRefusal) return profilePage(ctx, { form: typed, refusal: err.refusal });
    throw err;
  }
  redirect(ctx.res, '/console/profile?done=saved');
}
