// The mandate page shows every term in words, and its preview shows every effect of a change,
// tools and terms alike, for every live token, before anything is saved. Server-side HTML.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_AGENT_SCOPES } from '../helpers/club.ts';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

const ALL = ALL_AGENT_SCOPES.split(',');

/** The text a person reads: tags dropped, entities decoded, spaces collapsed. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

void describe('the mandate page: terms in words, and a preview of every effect', () => {
  let club: ConsoleClub;
  let v: Visitor;
  let aliceId: string;

  before(async () => {
    club = await startConsoleClub();
    await club.add('alice', 'member');
    await club.add('dave', 'member');
    await club.add('mallory', 'member');
    await club.issue('alice', ALL_AGENT_SCOPES, 'desk agent');
    await club.issue('alice', 'inbox,mandate:read', 'inbox agent');
    await club.issue('alice', 'evidence:write', 'evidence agent');
    aliceId = (await club.store.getPrincipalByHandle('alice'))!.id;
    v = new Visitor(club.base);
    assert.equal((await v.signInWith(await club.link('alice'))).status, 303);
  });
  after(() => club.close());

  /** The form as the page sends it with the default terms, changed by `over`. */
  const form = async (over: Record<string, string | string[]>) => ({
    _csrf: await v.csrf(),
    scope: ALL,
    mode: 'any',
    counterparts: '',
    daily: '20',
    reviews: 'on',
    terms: 'on',
    answer_mode: 'consult',
    answer_list: '',
    inbox: 'on',
    name: 'on',
    self_reports: 'on',
    denial_days: '30',
    ...over,
  });

  void it('shows each term in words as it stands', async () => {
    const page = text(await (await v.get('/console/mandate')).text());
    for (const words of [
      'Your agents may ask any member without you.',
      'After 20 questions a day (UTC), further questions will wait for you.',
      'Your agents may answer anyone who asks you.',
      'Reviews of candidates will wait for you.',
      'Opening or closing your inbox to questions will wait for you.',
      'A new display name will wait for you.',
      'Your agents may change your headline and bio without you.',
      'Self-reported evidence (a claim with no link behind it) will wait for you.',
      'A request you deny is refused at once if an agent asks it again within 30 days.',
    ])
      assert.ok(page.includes(words), words);
  });

  void it('narrowing consult to @dave previews what waits, for the tokens it concerns, and saves nothing', async () => {
    const res = await v.post(
      '/console/mandate',
      await form({ intent: 'preview', mode: 'list', counterparts: '@dave' }),
    );
    assert.equal(res.status, 200);
    const page = text(await res.text());
    assert.match(
      page,
      /What changes in your terms Questions to anyone but @dave will wait for you\. Now: Your agents may ask any member without you\./,
    );
    assert.ok(page.includes('Answers to anyone but @dave (the people they may ask) will wait for you.'));
    // The desk agent (all scopes) is concerned by both; the inbox agent only by answers; the
    // evidence agent by neither.
    // Tools do not change: 14 → 14, nothing gained or lost, for the token with every scope.
    assert.match(page, /desk agent 14 14 — — inbox agent 7 7 — — evidence agent 5 5 — —/);
    const tokenTerms = page.slice(page.indexOf('Terms that change for each token'));
    const row = (label: string) => {
      const from = tokenTerms.indexOf(`${label} :`) + label.length + 2;
      const ends = ['desk agent :', 'inbox agent :', 'evidence agent :', 'What changes']
        .map((l) => tokenTerms.indexOf(l, from))
        .filter((n) => n >= from);
      return tokenTerms.slice(from, Math.min(...ends)).trim();
    };
    assert.equal(
      row('desk agent'),
      'Questions to anyone but @dave will wait for you. Answers to anyone but @dave (the people they may ask) will wait for you.',
    );
    assert.equal(
      row('inbox agent'),
      'Answers to anyone but @dave (the people they may ask) will wait for you.',
    );
    assert.equal(row('evidence agent'), 'no term that governs its tools changes.');
    assert.equal(
      (await club.store.getMandate(aliceId)).consult.counterparts,
      'any',
      'a preview saves nothing',
    );
  });

  void it('previews each further term, and saves what it previewed', async () => {
    const changed = await form({
      intent: 'preview',
      answer_mode: 'list',
      answer_list: 'mallory',
      inbox: [],
      name: [],
      text: 'on',
      self_reports: [],
      denial_days: '0',
    });
    const page = text(await (await v.post('/console/mandate', changed)).text());
    for (const words of [
      'Answers to anyone but @mallory will wait for you.',
      'Your agents may open or close your inbox to questions without you.',
      'Your agents may change your display name without you.',
      'A new headline or bio will wait for you.',
      'Your agents may file self-reported evidence without you.',
      'A request you deny may be asked again at once.',
    ])
      assert.ok(page.includes(words), words);
    assert.ok(
      page.includes('Your agents may ask any member without you. Now:') === false,
      'an unchanged term is not listed as a change',
    );
    const saved = await v.post('/console/mandate', { ...changed, intent: 'save', _csrf: await v.csrf() });
    assert.equal(saved.status, 303);
    const m = await club.store.getMandate(aliceId);
    assert.deepEqual(m.answer.counterparts, ['mallory']);
    assert.deepEqual(m.profile, {
      inboxNeedsApproval: false,
      nameNeedsApproval: false,
      textNeedsApproval: true,
    });
    assert.equal(m.selfReportsNeedApproval, false);
    assert.equal(m.denialWindowDays, 0);
  });

  void it('a post without the terms fieldset keeps the terms; a bad value is refused and nothing lost', async () => {
    const before = await club.store.getMandate(aliceId);
    const old = {
      _csrf: await v.csrf(),
      intent: 'save',
      scope: ALL,
      mode: 'any',
      counterparts: '',
      daily: '5',
    };
    assert.equal((await v.post('/console/mandate', old)).status, 303);
    const after = await club.store.getMandate(aliceId);
    assert.equal(after.consult.dailyLimit, 5);
    assert.deepEqual(
      { ...after, consult: before.consult, reviewsNeedApproval: before.reviewsNeedApproval },
      before,
    );
    for (const [field, value, reason] of [
      ['denial_days', '400', /Days a denial holds takes a whole number from 0 to 365; got "400"/],
      ['answer_list', 'nobody-here', /No principal has the handle "nobody-here"/],
    ] as const) {
      const res = await v.post(
        '/console/mandate',
        await form({ intent: 'preview', answer_mode: 'list', answer_list: 'dave', [field]: value }),
      );
      assert.equal(res.status, 400);
      const page = text(await res.text());
      assert.match(page, reason);
    }
    assert.equal((await club.store.getMandate(aliceId)).consult.dailyLimit, 5, 'nothing lost');
  });
});
