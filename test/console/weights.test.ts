// Every console page stays under 100 KB however much members wrote: lists are cut
// and member text is clipped in lists. Worst case here: more rows than any page
// shows, each field 4000 characters of `"` (six bytes each once escaped).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startConsoleClub, Visitor, type ConsoleClub } from '../helpers/console.ts';

const HEAVY = '"'.repeat(4000);
const LIMIT = 100 * 1024;

void describe('console page weight, worst case', () => {
  let club: ConsoleClub;
  let v: Visitor;

  before(async () => {
    club = await startConsoleClub();
    const s = club.store;
    await club.add('alice', 'member', { operator: true });
    await club.add('cand', 'candidate');
    const alice = (await s.getPrincipalByHandle('alice'))!;
    const cand = (await s.getPrincipalByHandle('cand'))!;
    await s.updateProfile(alice.id, { displayName: HEAVY, headline: HEAVY, bio: HEAVY });
    const { tokenId } = await club.issue('alice');
    for (let i = 0; i < 50; i++) await club.issue('alice', undefined, `agent number ${i} of many`);
    for (let i = 0; i < 60; i++) {
      await club.add(`m${i}`, 'member');
      const m = (await s.getPrincipalByHandle(`m${i}`))!;
      await s.updateProfile(m.id, { displayName: HEAVY, headline: HEAVY, bio: HEAVY });
      await s.addReview({ reviewerId: m.id, candidateId: cand.id, verdict: 'support', note: HEAVY });
      await s.addEvidence({ principalId: alice.id, origin: 'manual', claim: HEAVY, artifactRef: null });
      const call = { principalId: alice.id, tokenId, tool: HEAVY, summary: HEAVY, decisionId: null };
      await s.recordActivity([
        { ...call, outcome: 'refused', code: 'not_found', at: new Date().toISOString() },
      ]);
      const q = await s.createQuestion({ askerId: m.id, targetId: alice.id, question: HEAVY });
      await s.answerQuestion(q.id, HEAVY, new Date().toISOString());
      const a = await s.createQuestion({ askerId: alice.id, targetId: m.id, question: HEAVY });
      await s.answerQuestion(a.id, HEAVY, new Date().toISOString());
      const args = { to: `m${i}`, question: HEAVY };
      const common = { principalId: alice.id, tokenId, tool: 'ask_agent', reasonCode: 'x', reason: 'r' };
      await s.createDecision({ ...common, arguments: args });
      const d = await s.createDecision({ ...common, arguments: args });
      await s.claimDecision(d.id, 'denied', HEAVY, new Date().toISOString());
    }
    v = new Visitor(club.base);
    await v.signInWith(await club.link('alice'));
  });
  after(() => club.close());

  void it('each page is under 100 KB', async (t) => {
    const paths = [
      '/console/',
      '/console/mandate',
      '/console/tokens',
      '/console/decisions',
      '/console/activity',
      '/console/profile',
      '/console/evidence',
      '/console/consultations',
      '/console/passkeys',
      '/console/operator',
      '/console/operator/principal?h=cand',
      '/console/operator/principal?h=m1',
      '/console/signin',
    ];
    for (const path of paths) {
      const res = await v.get(path);
      assert.equal(res.status, 200, path);
      const bytes = (await res.arrayBuffer()).byteLength;
      t.diagnostic(`${path}: ${bytes} bytes`);
      assert.ok(bytes < LIMIT, `${path} weighs ${bytes} bytes`);
    }
  });

  void it('the operator list pages by handle: every principal once, on pages of 30, with a way back to the first', async () => {
    const seen: string[] = [];
    let path: string | undefined = '/console/operator';
    for (let pages = 0; path && pages < 10; pages++) {
      const page = await (await v.get(path)).text();
      seen.push(...[...page.matchAll(/<th scope="row"><a href="[^"]*">@([^<]+)<\/a>/g)].map((m) => m[1]!));
      if (pages > 0) assert.match(page, /rel="first"/);
      path = /<a href="([^"]+)" rel="next">/
        .exec(page)?.[1]
        ?.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
        .replaceAll('&amp;', '&');
    }
    const all = (await club.store.listPrincipals()).map((p) => p.handle);
    assert.equal(all.length, 62);
    assert.deepEqual(seen, all, 'every principal exactly once, in handle order');
  });

  void it('the principal’s own lists page by time from the store: every row once, each list on its own', async () => {
    const decode = (href: string) =>
      href.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replaceAll('&amp;', '&');
    /** Follows one list's "Next page" links, counting the rows its section shows on each page. */
    const count = async (path: string, section: string, row: RegExp) => {
      let total = 0;
      let at: string | undefined = path;
      for (let pages = 0; at && pages < 20; pages++) {
        const page: string = await (await v.get(at)).text();
        const part: string = page.split(`aria-labelledby="${section}"`)[1]!.split('</section>')[0]!;
        total += part.match(row)?.length ?? 0;
        const next: string | undefined = /<a href="([^"]+)" rel="next">/.exec(part)?.[1];
        at = next === undefined ? undefined : decode(next);
      }
      return total;
    };
    assert.equal(await count('/console/decisions', 'pending', /<article class="decision"/g), 60);
    assert.equal(await count('/console/decisions', 'history', /<th scope="row">\s*<span class="act">/g), 60);
    assert.equal(await count('/console/consultations', 'asked', /<th scope="row">@/g), 60);
    assert.equal(await count('/console/consultations', 'received', /<th scope="row">@/g), 60);
  });
});
