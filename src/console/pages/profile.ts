import { AdminRefusal } from '../../admin/errors.ts';
import { editProfile, PROFILE_LIMITS, type ProfileEdit } from '../../admin/profile.ts';
import type { Refusal } from '../../core/refusal.ts';
import type { PrincipalRecord } from '../../store/contract.ts';
import { forHumans } from '../../untrusted/index.ts';
import { when } from '../dates.ts';
import { html, long, type Html } from '../html.ts';
import { csrfField, noticeBox, refusalBox } from '../layout.ts';
import type { Authed } from '../context.ts';
import { sendPage } from '../respond.ts';
import { redirect } from '../web.ts';

/** The form's limits, as the profile rules count them (characters); the server checks them again. */
const MAX = {
  name: PROFILE_LIMITS.display_name,
  headline: PROFILE_LIMITS.headline,
  bio: PROFILE_LIMITS.bio,
} as const;
/** The most a character can grow when shown: `[U+10FFFF]`. */
const LONGEST_SHOWN_CHARACTER = 10;

const NOTICES: Record<string, string> = {
  saved: "Saved. Other members' agents read your profile as it is now.",
  unchanged: 'Nothing changed: every field was as saved.',
};

type Field = keyof typeof MAX;

/** What the form holds: the profile as shown, or what the person typed when it was refused. */
interface ProfileForm extends Record<Field, string> {
  accepts: boolean;
  /** Fields longer than the profile rules allow (set another way), left out of the form. */
  omitted: Field[];
}

/**
 * The profile as the form shows it: each field as a person reads it (invisible and control
 * characters written out as [U+XXXX]). A field submitted exactly as shown was not touched,
 * so it is not sent: text an agent wrote stays as it was, to the character. A field longer
 * than any the rules accept (an operator's long name, say) is left empty instead, which also
 * keeps the page light; sent back empty, it is kept as it is.
 */
function shownForm(p: PrincipalRecord): ProfileForm {
  const form: ProfileForm = { name: '', headline: '', bio: '', accepts: p.acceptsQuestions, omitted: [] };
  const stored = { name: p.displayName, headline: p.headline, bio: p.bio };
  for (const field of ['name', 'headline', 'bio'] as const) {
    const text = forHumans(stored[field], Number.MAX_SAFE_INTEGER);
    if ([...text].length > MAX[field] * LONGEST_SHOWN_CHARACTER) form.omitted.push(field);
    else form[field] = text;
  }
  return form;
}

/** Said under a field left out of the form. */
function omittedHint(f: ProfileForm, field: Field): Html | '' {
  return f.omitted.includes(field)
    ? html`<p class="hint" id="${field}-hint">
        Longer than a profile allows (${MAX[field]} characters), so not shown here: leave it empty to keep it,
        or type a new one to replace it.
      </p>`
    : '';
}

/**
 * Your public profile as other members' agents read it, and the form to change it in person.
 * The line break written right after `<textarea>` is one the HTML parser drops, so a bio's
 * own first line break stays.
 */
export async function profilePage(
  ctx: Authed,
  extra: { form?: ProfileForm; refusal?: Refusal } = {},
): Promise<void> {
  const me = ctx.session.principal;
  const f = extra.form ?? shownForm(me);
  const body = html`${noticeBox(NOTICES[ctx.query.get('done') ?? ''])}${extra.refusal ? refusalBox(extra.refusal) : ''}
    <p>
      Your public profile, as other members' agents read it. An agent of yours may change it too, if its token
      has the permission “Edit your profile”.
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
      <dd>${when(me.createdAt, ctx.now)}</dd>
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
            ${f.omitted.includes('name') ? html` aria-describedby="name-hint"` : html` required`}
            autocomplete="name"
          />${omittedHint(f, 'name')}
        </div>
        <div class="field">
          <label for="headline">Headline</label
          ><input
            type="text"
            id="headline"
            name="headline"
            value="${f.headline}"
            maxlength="${MAX.headline}"
            ${f.omitted.includes('headline') ? html` aria-describedby="headline-hint"` : ''}
          />${omittedHint(f, 'headline')}
        </div>
        <div class="field">
          <label for="bio">Bio</label>
          <textarea
            id="bio"
            name="bio"
            rows="8"
            maxlength="${MAX.bio}"
            ${f.omitted.includes('bio') ? html` aria-describedby="bio-hint"` : ''}
          >
${f.bio}</textarea
          >${omittedHint(f, 'bio')}
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
    omitted: before.omitted,
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
