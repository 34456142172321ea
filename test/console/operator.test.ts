// The operator at the console, in Chromium: admission widens a candidate's agent at
// its next request; suspension stops a member's console session and tokens at once.
// And, header-level: a candidate's page shows what admission is decided on, their
// evidence and the members' reviews, each paged on its own, member text as written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { issueAgentToken } from '../../src/admin/tokens.ts';
import { ALL_AGENT_SCOPES } from '../helpers/club.ts';
import {
  browserSkip,
  launchBrowser,
  screenshots,
  startConsoleClub,
  Visitor,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';

const skip = browserSkip();

void describe('the operator at the console, in Chromium', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;

  before(async () => {
    club = await startConsoleClub();
    browser = await launchBrowser();
    await club.add('olga', 'member', { operator: true, name: 'Olga' });
    await club.add('cleo', 'candidate', { name: 'Cleo' });
    await club.add('mike', 'member', { name: 'Mike' });
    await club.add('rita', 'member', { name: 'Rita' });
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  void it('admits a candidate: their agent goes from 10 tools to 14 at its next tools/list', async () => {
    const cleo = await club.store.getPrincipalByHandle('cleo');
    const rita = await club.store.getPrincipalByHandle('rita');
    await club.store.addReview({
      reviewerId: rita!.id,
      candidateId: cleo!.id,
      verdict: 'support',
      note: 'Solid work on the grant.',
    });
    await club.store.addEvidence({
      principalId: cleo!.id,
      origin: 'manual',
      claim: 'Ran the grant round this spring.',
      artifactRef: null,
    });
    // Issued while a candidate, with the member scopes for after admission (inert until then).
    const issued = await issueAgentToken(club.store, club.registry, 'cleo', {
      scopes: ALL_AGENT_SCOPES,
      label: 'cleo-agent',
      afterAdmission: true,
    });
    const agent = await club.connect(issued.token);
    assert.equal((await agent.listTools()).tools.length, 10);

    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await page.goto(await club.link('olga'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/passkeys/);
    await page.getByRole('link', { name: 'Operator' }).click();
    await page.getByLabel('Search by the start of words in handle, name or headline').fill('cle');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = await page.locator('main table tbody tr').count();
    assert.equal(rows, 1, 'the search finds only cleo');
    await screenshots(page, 'operator');
    await page.getByRole('link', { name: '@cleo' }).click();
    assert.match(await page.locator('main').innerText(), /Solid work on the grant\./);
    assert.match(
      await page.locator('main').innerText(),
      /Evidence filed by @cleo: 1[\s\S]*Ran the grant round/,
    );
    await screenshots(page, 'operator-principal');
    await page.getByRole('button', { name: 'Admit as member' }).click();
    await page.waitForURL(/done=admitted/);
    assert.equal((await agent.listTools()).tools.length, 14, 'the very next tools/list');

    // A sign-in link made on the page works once, for the right person.
    await page.getByRole('button', { name: 'Make a sign-in link' }).click();
    const link = (await page.locator('#login-link').innerText()).trim();
    assert.match(link, new RegExp(`^${club.base}/console/link\\?t=`));
    const other = await browser.newContext();
    const cleoPage = await other.newPage();
    await cleoPage.goto(link);
    await cleoPage.getByRole('button', { name: 'Continue and sign in' }).click();
    await cleoPage.waitForURL(/passkeys/);
    await cleoPage.goto(`${club.base}/console/`);
    assert.match(await cleoPage.locator('main').innerText(), /@cleo[\s\S]*member/);
    await other.close();
    assert.deepEqual(watch.problems, []);
    await context.close();
  });

  void it('suspends a member: their console session and their tokens stop at once', async () => {
    const { token } = await club.issue('mike');
    const agent = await club.connect(token);
    assert.equal((await agent.listTools()).tools.length, 14);
    const mikeContext = await browser.newContext();
    const mike = await mikeContext.newPage();
    await mike.goto(await club.link('mike'));
    await mike.getByRole('button', { name: 'Continue and sign in' }).click();
    await mike.waitForURL(/passkeys/);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await club.link('olga'));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/passkeys/);
    await page.goto(`${club.base}/console/operator/principal?h=mike`);
    await page.getByRole('button', { name: 'Suspend…' }).click();
    assert.match(await page.locator('main').innerText(), /Suspend @mike\?/);
    assert.equal((await club.store.getPrincipalByHandle('mike'))!.status, 'member', 'asking changes nothing');
    await screenshots(page, 'operator-suspend');
    await page.getByRole('button', { name: 'Suspend @mike' }).click();
    await page.waitForURL(/done=suspended/);

    await mike.goto(`${club.base}/console/`);
    assert.match(mike.url(), /\/console\/signin$/);
    await assert.rejects(agent.listTools(), (err: Error) =>
      /401|Unauthorized|invalid_token/i.test(String(err)),
    );

    await page.getByRole('button', { name: 'Reinstate…' }).click();
    await page.getByRole('button', { name: 'Reinstate @mike' }).click();
    await page.waitForURL(/done=reinstated/);
    await mikeContext.close();
    await context.close();
  });
});

/** The text of a page with its tags dropped and entities kept, for matching what a reader sees. */
function rows(page: string, section: string): string[] {
  const start = page.indexOf(`aria-labelledby="${section}"`);
  const body = page.slice(start, page.indexOf('</section>', start));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

function nextLink(page: string, section: string): string | null {
  const start = page.indexOf(`aria-labelledby="${section}"`);
  const body = page.slice(start, page.indexOf('</section>', start));
  const href = /<a href="([^"]+)" rel="next"/.exec(body)?.[1];
  return href ? href.replace(/&amp;/g, '&').replace(/&#61;/g, '=') : null;
}

void describe("a candidate's page: evidence and reviews, each paged, member text as written", () => {
  let club: ConsoleClub;
  let olga: Visitor;

  before(async () => {
    club = await startConsoleClub({ signInPerMinute: 1000 });
    await club.add('olga', 'member', { operator: true, name: 'Olga' });
    await club.add('cleo', 'candidate', { name: 'Cleo' });
    const cleo = (await club.store.getPrincipalByHandle('cleo'))!;
    for (let i = 1; i <= 12; i++) {
      await club.store.addEvidence({
        principalId: cleo.id,
        origin: i % 3 === 0 ? 'commit' : 'manual',
        claim: `Claim ${i}: <b>bold</b> \u202Eevil`,
        artifactRef: i % 3 === 0 ? `https://git.example/club/repo@${'a'.repeat(40)}` : null,
      });
    }
    for (let i = 1; i <= 17; i++) {
      await club.add(`r${i}`, 'member');
      const reviewer = (await club.store.getPrincipalByHandle(`r${i}`))!;
      await club.store.addReview({
        reviewerId: reviewer.id,
        candidateId: cleo.id,
        verdict: i % 4 === 0 ? 'oppose' : 'support',
        note: `Review ${i} <i>with markup</i>`,
      });
    }
    olga = new Visitor(club.base);
    await olga.signInWith(await club.link('olga'));
  });
  after(() => club.close());

  void it('shows the newest evidence first, ten to a page, and the reviews fifteen to a page, independently', async () => {
    const first = await (await olga.get('/console/operator/principal?h=cleo')).text();
    assert.match(first, /Evidence filed by @cleo: 12/);
    assert.match(first, /By origin: (?:self-report 8, commit 4|commit 4, self-report 8)\./);
    const evidence = rows(first, 'evidence');
    assert.equal(evidence.length, 10);
    assert.match(
      evidence[0]!,
      /commit Claim 12: &lt;b&gt;bold&lt;\/b&gt; \[U\+202E\]evil https:\/\/git\.example/,
    );
    assert.match(evidence[1]!, /self-report Claim 11: .* none$/);
    assert.equal(rows(first, 'reviews').length, 15);
    assert.match(rows(first, 'reviews')[0]!, /@r17 support Review 17 &lt;i&gt;with markup&lt;\/i&gt;/);
    assert.doesNotMatch(first, /\[U\+003C\]/, 'markup is shown as written, escaped, not made visible');

    const evidenceNext = nextLink(first, 'evidence');
    assert.ok(
      evidenceNext?.startsWith('/console/operator/principal?h=cleo&evidence='),
      evidenceNext ?? 'none',
    );
    const second = await (await olga.get(evidenceNext!)).text();
    assert.deepEqual(
      rows(second, 'evidence').map((r) => /Claim (\d+)/.exec(r)![1]),
      ['2', '1'],
    );
    assert.equal(rows(second, 'reviews').length, 15, 'the reviews stay on their first page');

    // The reviews are read a page at a time from the store, after the last one shown.
    const reviewsNext = nextLink(first, 'reviews')!;
    assert.ok(reviewsNext.startsWith('/console/operator/principal?h=cleo&reviews='), reviewsNext);
    const later = await (await olga.get(reviewsNext)).text();
    assert.equal(rows(later, 'reviews').length, 2);
    assert.equal(nextLink(later, 'reviews'), null, 'the last page');
    assert.match(later, /Reviews of @cleo: 17/);
    const by = (page: string) => rows(page, 'reviews').map((r) => /@(r\d+)/.exec(r)![1]!);
    assert.deepEqual(
      [...by(first), ...by(later)].sort(),
      Array.from({ length: 17 }, (_, i) => `r${i + 1}`).sort(),
      'every review once',
    );
    assert.equal(rows(later, 'evidence').length, 10, 'the evidence stays on its first page');
  });

  void it('keeps its paging links on the page itself when it answers a form, and says when the link expires', async () => {
    const page = await (await olga.get('/console/operator/principal?h=cleo')).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const res = await olga.post('/console/operator/link', { _csrf: csrf, handle: 'cleo', expires: '15m' });
    const answered = await res.text();
    assert.match(answered, /id="login-link"/);
    // Its expiry as a person reads it: the moment in UTC, and how far off.
    assert.match(
      answered,
      /valid until <time datetime="[^"]+">\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d\d:\d\d UTC<\/time>\s*<span class="ago">\(in 15 minutes\)<\/span>/,
    );
    assert.ok(nextLink(answered, 'evidence')?.startsWith('/console/operator/principal?h=cleo&evidence='));
    assert.equal(nextLink(answered, 'reviews'), nextLink(page, 'reviews'));
  });

  void it('stays under 100 KB with both lists full of the longest member text', async () => {
    await club.add('heavy', 'candidate');
    const heavy = (await club.store.getPrincipalByHandle('heavy'))!;
    const HEAVY = '"'.repeat(4000);
    for (let i = 0; i < 12; i++) {
      await club.store.addEvidence({
        principalId: heavy.id,
        origin: 'commit',
        claim: HEAVY,
        artifactRef: HEAVY,
      });
    }
    for (let i = 1; i <= 17; i++) {
      const reviewer = (await club.store.getPrincipalByHandle(`r${i}`))!;
      await club.store.addReview({
        reviewerId: reviewer.id,
        candidateId: heavy.id,
        verdict: 'support',
        note: HEAVY,
      });
    }
    await club.store.updateProfile(heavy.id, { displayName: HEAVY, headline: HEAVY });
    const res = await olga.get('/console/operator/principal?h=heavy');
    const bytes = (await res.arrayBuffer()).byteLength;
    assert.ok(bytes < 100 * 1024, `${bytes} bytes`);
  });
});
