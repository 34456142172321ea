// Member- and client-written text on every console page, in Chromium: a corpus of injection
// strings planted in every member-writable field (and a client id and a passkey name) runs
// nothing and shows as text, with every invisible, bidi and control character made visible.
// The same run measures each page's weight (all under 100 KB).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { forPeople } from '../../src/untrusted/index.ts';
import {
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';
import { XSS_CORPUS } from './xss-corpus.ts';

const skip = browserSkip();
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
/** What a person sees for a member's string: markup as text, hidden characters as [U+XXXX] (as the admin CLI). */
const shown = (raw: string) => flat(forPeople(raw));
/** Nothing a reader cannot see may reach the page raw: controls, bidi and other format characters. */
const HIDDEN = /[\p{Cc}\p{Cf}]/u;
/** Written by an OAuth client about itself, and by a person naming a passkey (both plain strings, not member text). */
const CLIENT_ID = 'https://app.example/\u202Etxt.exe\u200B\u001b[31m<img src=x onerror="window.__xss=30">';
const PASSKEY_LABEL = 'laptop\u2066\u202E<b>key</b>\u2069\u{E0041}';

void describe('member text on every console page, in Chromium', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;

  before(async () => {
    assert.ok(XSS_CORPUS.length >= 30);
    club = await startConsoleClub();
    browser = await launchBrowser();
    await club.add('alice', 'member', { operator: true });
    await club.add('cand', 'candidate');
    const s = club.store;
    const alice = (await s.getPrincipalByHandle('alice'))!;
    const cand = (await s.getPrincipalByHandle('cand'))!;
    const { tokenId } = await club.issue('alice');
    // In chunks of three, so every list stays within what its page shows at once.
    const chunks: string[] = [];
    for (let i = 0; i < XSS_CORPUS.length; i += 3) chunks.push(XSS_CORPUS.slice(i, i + 3).join(' \n'));
    for (const [i, raw] of chunks.entries()) {
      // Each string is the name, headline and bio of a member, a review note, an
      // evidence claim, a question and an answer each way, a decision's arguments and its note.
      await club.add(`m${i}`, 'member');
      const m = (await s.getPrincipalByHandle(`m${i}`))!;
      await s.updateProfile(m.id, { displayName: raw, headline: raw, bio: raw });
      await s.addReview({ reviewerId: m.id, candidateId: cand.id, verdict: 'oppose', note: raw });
      await s.addEvidence({ principalId: alice.id, origin: 'manual', claim: raw, artifactRef: null });
      const asked = await s.createQuestion({ askerId: m.id, targetId: alice.id, question: raw });
      await s.answerQuestion(asked.id, raw, new Date().toISOString());
      await s.createQuestion({ askerId: alice.id, targetId: m.id, question: raw });
      await s.createDecision({
        principalId: alice.id,
        tokenId,
        tool: 'ask_agent',
        arguments: { to: `m${i}`, question: raw },
        reasonCode: 'counterpart_not_in_mandate',
        reason: 'outside the mandate',
      });
      const decided = await s.createDecision({
        principalId: alice.id,
        tokenId,
        tool: 'review_candidate',
        arguments: { candidate: 'cand', verdict: 'oppose', note: raw },
        reasonCode: 'reviews_need_approval',
        reason: 'reviews need approval',
      });
      await s.claimDecision(decided.id, 'denied', raw, new Date().toISOString());
      const at = new Date().toISOString();
      const call = { principalId: alice.id, tokenId, tool: raw, summary: raw, decisionId: null, at };
      await s.recordActivity([{ ...call, outcome: 'refused', code: 'not_found' }]);
    }
    // A connection named by its client, and a passkey named by a person: plain strings, not member text.
    await s.insertToken({
      principalId: alice.id,
      label: 'connection',
      hash: 'c'.repeat(64),
      scopes: ['inbox'],
      expiresAt: null,
      origin: 'oauth',
      clientId: CLIENT_ID,
    });
    await s.addPasskey({
      id: 'xss-passkey',
      principalId: alice.id,
      publicKey: 'AA',
      counter: 0,
      transports: [],
      label: PASSKEY_LABEL,
    });
    // The signed-in principal's own profile carries every string too.
    await s.updateProfile(alice.id, {
      displayName: XSS_CORPUS[0]!,
      headline: XSS_CORPUS[1]!,
      bio: XSS_CORPUS.join('\n'),
    });
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  /** Each page, and which planted strings it must show. */
  const PAGES: { path: string; name: string; expect: readonly string[]; more?: string[] }[] = [
    { path: '/console/', name: 'overview', expect: [XSS_CORPUS[0]!] },
    { path: '/console/profile', name: 'profile', expect: XSS_CORPUS },
    { path: '/console/evidence', name: 'evidence', expect: XSS_CORPUS },
    {
      path: '/console/consultations',
      name: 'consultations',
      expect: XSS_CORPUS,
      // Ten per list per page: the rest is one "Next page" away, in each list.
      more: ['asked', 'received'],
    },
    { path: '/console/decisions', name: 'decisions', expect: XSS_CORPUS },
    { path: '/console/activity', name: 'activity', expect: XSS_CORPUS },
    { path: '/console/operator', name: 'operator-list', expect: XSS_CORPUS },
    { path: '/console/operator/principal?h=cand', name: 'operator-reviews', expect: XSS_CORPUS },
    { path: '/console/operator/principal?h=m5', name: 'operator-member', expect: XSS_CORPUS.slice(15, 18) },
    { path: '/console/mandate', name: 'mandate', expect: [] },
    { path: '/console/tokens', name: 'tokens-list', expect: [CLIENT_ID] },
    { path: '/console/passkeys', name: 'passkeys-list', expect: [PASSKEY_LABEL] },
  ];

  async function sentinel(page: Page): Promise<unknown> {
    return page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
  }

  void it('nothing runs, every string is visible as text, and every page weighs under 100 KB', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await page.goto(await club.link('alice'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/\/console\/(?:$|passkeys)/);
    const weights: Record<string, number> = {};
    for (const p of PAGES) {
      const res = await page.goto(club.base + p.path);
      assert.equal(res?.status(), 200, p.path);
      const bytes = (await res!.body()).length;
      weights[p.path] = bytes;
      assert.ok(bytes < 100 * 1024, `${p.path} weighs ${bytes} bytes`);
      await page.waitForTimeout(50);
      assert.equal(await sentinel(page), undefined, `${p.path}: an injected script ran`);
      let text = flat(await page.locator('main').innerText());
      for (const list of p.more ?? []) {
        await page.locator(`section[aria-labelledby="${list}"] a[rel="next"]`).click();
        await page.waitForURL(new RegExp(`${list}=`));
        assert.equal(await sentinel(page), undefined, `${page.url()}: an injected script ran`);
        text += ' ' + flat(await page.locator('main').innerText());
      }
      for (const raw of p.expect) {
        assert.ok(text.includes(shown(raw)), `${p.path} does not show ${JSON.stringify(raw)}`);
      }
      const hidden = HIDDEN.exec(text);
      assert.equal(hidden, null, `${p.path} shows U+${hidden?.[0].codePointAt(0)?.toString(16)} raw`);
      if (p.expect.some((raw) => raw.includes('\u202E')))
        assert.ok(text.includes('[U+202E]'), `${p.path}: a right-to-left override is shown, not obeyed`);
      // Nothing a member wrote became an element: no script, frame, style, form or link beyond ours.
      const foreign = await page.evaluate(() => ({
        scripts: [...document.scripts]
          .map((s) => s.src)
          .filter((s) => !/\/console\/assets\/(webauthn|passkey|token-preview|local-time)\.js$/.test(s)),
        iframes: document.querySelectorAll(
          'iframe, svg, math, img, style, base, meta[http-equiv], textarea:not([name])',
        ).length,
        links: [...document.querySelectorAll('a')]
          .map((a) => a.getAttribute('href')!)
          .filter((h) => !h.startsWith('/console') && !h.startsWith('#')),
        forms: [...document.forms]
          .map((f) => f.getAttribute('action')!)
          .filter((a) => !a.startsWith('/console')),
      }));
      assert.deepEqual(foreign, { scripts: [], iframes: 0, links: [], forms: [] }, p.path);
      await screenshots(page, `xss-${p.name}`);
    }
    assert.deepEqual(watch.problems, []);
    const dir = join(process.cwd(), 'screenshots');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'page-weights.json'), JSON.stringify(weights, null, 2) + '\n');
    await context.close();
  });
});
