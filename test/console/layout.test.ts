// Every console page reads at 375 and 1280 px without sideways scrolling, in Chromium:
// signed in as a member (and operator), as a candidate, and signed out; with member text
// made of long unbroken words, long addresses and long labels, and more rows than any
// list shows at once. A table may turn into stacked cards on a phone, but no column and
// no row's action may end up off-screen, in the page or in a scrolling box of its own.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  browserSkip,
  launchBrowser,
  startConsoleClub,
  watchPage,
  type ConsoleClub,
} from '../helpers/console.ts';
import { CALLBACK, authorizeUrl, pkce, register } from '../helpers/oauth.ts';
import { ROUTES } from '../../src/console/routes.ts';

const skip = browserSkip();
const WIDTHS = [375, 1280] as const;
const ROWS = 45;

/** One word of 180 letters, an address of 250 characters, and ordinary words around them. */
const WORD = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(4);
const ADDRESS = `https://example.org/${'a-very-long-path-segment/'.repeat(8)}?query=${'q'.repeat(40)}`;
const LONG = `${WORD} see ${ADDRESS} and then an ordinary sentence that wraps as ordinary text does.`;
/** Handles are 2 to 32 characters: the longest the club accepts. */
const handle = (prefix: string, i: number) => `${prefix}${i}`.padEnd(32, 'x');
/** A label of 64 unbroken characters, the most a token label may be. */
const label = (i: number) => `agent-${i}-`.padEnd(64, 'L');

interface Measure {
  scrollWidth: number;
  innerWidth: number;
  /** Elements in main that scroll sideways inside themselves. */
  innerScroll: string[];
  /** Cells, buttons and links that stick out of the viewport (cut off, or only reachable by scrolling). */
  offscreen: string[];
  /** Ordinary words (3 to 20 letters) drawn across two lines: a word broken mid-word. */
  brokenWords: string[];
}

// Run in the page as written: a string, so the test's compiler adds nothing to it.
const MEASURE = `(() => {
  const name = (el) =>
    el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + String(el.className).replace(/ /g, '.') : '') +
    ' “' + (el.textContent || '').trim().slice(0, 40) + '”';
  const innerScroll = [];
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if (/auto|scroll/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) innerScroll.push(name(el));
  }
  const offscreen = [];
  for (const el of document.querySelectorAll('main th, main td, main button, main a, main input, main select')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > window.innerWidth + 0.5 || r.left < -0.5)
      offscreen.push(name(el) + ' [' + Math.round(r.left) + '–' + Math.round(r.right) + ']');
  }
  const brokenWords = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent || '';
    for (const m of text.matchAll(/\\p{L}{3,20}/gu)) {
      // Only words of ordinary text: a piece of a long unbroken run (an address, a secret) must break somewhere.
      const start = text.slice(0, m.index).search(/\\S*$/);
      const run = text.slice(start).match(/^\\S*/)[0];
      if (run.length > 30 || /[\\p{L}\\p{N}_]/u.test(text[m.index - 1] || ' ') || /[\\p{L}\\p{N}_]/u.test(text[m.index + m[0].length] || ' ')) continue;
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) brokenWords.push(m[0]);
    }
  }
  return {
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: window.innerWidth,
    innerScroll: innerScroll.slice(0, 5),
    offscreen: offscreen.slice(0, 5),
    brokenWords: [...new Set(brokenWords)].slice(0, 5),
  };
})()`;

async function measure(page: Page): Promise<Measure> {
  return page.evaluate<Measure>(MEASURE);
}

/** What is wrong with a page as measured; empty when it reads well. */
function problemsOf(m: Measure): string[] {
  return [
    ...(m.scrollWidth <= m.innerWidth ? [] : [`scrollWidth ${m.scrollWidth} > ${m.innerWidth}`]),
    ...m.innerScroll.map((e) => `scrolls inside: ${e}`),
    ...m.offscreen.map((e) => `off-screen: ${e}`),
    ...m.brokenWords.map((w) => `word broken: ${w}`),
  ];
}

/**
 * Full-page screenshots of every measurement cost more than the rest of the file together,
 * so a page is kept only when it fails, to show what broke; all of them with this set.
 */
const EVERY_SCREENSHOT = process.env['WARDEN_LAYOUT_SCREENSHOTS'] === '1';

void describe('every console page at 375 and 1280 px', { skip }, () => {
  let club: ConsoleClub;
  let browser: Browser;
  const results: { page: string; width: number; m: Measure }[] = [];
  const visited = new Set<string>();

  before(async () => {
    club = await startConsoleClub({}, { oauth: {} });
    browser = await launchBrowser();
    const s = club.store;
    await club.add('alice', 'member', { operator: true, name: 'Alice' });
    const cand = handle('candidate', 1);
    await club.add(cand, 'candidate');
    const alice = (await s.getPrincipalByHandle('alice'))!;
    const candidate = (await s.getPrincipalByHandle(cand))!;
    for (const p of [alice, candidate]) {
      await s.updateProfile(p.id, {
        displayName: `Alice ${WORD}`,
        headline: LONG,
        bio: `${LONG}\n`.repeat(8),
      });
    }
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    // Live tokens, revoked ones, expired ones and OAuth connections, for both.
    const asker: Record<string, string> = {};
    for (const p of [alice, candidate]) {
      const scopes =
        p === alice
          ? ['profile:write', 'evidence:write', 'inbox', 'mandate:read', 'consult', 'vouch']
          : ['profile:write', 'evidence:write', 'mandate:read'];
      for (let i = 0; i < ROWS; i++) {
        const t = await s.insertToken({
          principalId: p.id,
          label: label(i),
          hash: `${p === alice ? 'a' : 'c'}${String(i).padStart(63, '0')}`,
          scopes,
          expiresAt: i % 9 === 4 ? at(-3_600_000) : i % 2 ? at(86_400_000 * 30) : null,
        });
        if (i % 9 === 2) await s.revokeToken(t.id, at(-7_200_000));
        if (i % 9 === 1) await s.touchToken(t.id, at(-60_000));
        asker[p.id] ??= t.id;
      }
      await s.insertToken({
        principalId: p.id,
        label: `Desk ${WORD}`.slice(0, 64),
        hash: `${p === alice ? 'o' : 'p'}${'1'.repeat(63)}`,
        scopes: ['inbox', 'mandate:read'],
        expiresAt: null,
        origin: 'oauth',
        clientId: ADDRESS,
      });
    }
    // A token named by one ordinary word: it stays whole in the Activity table's narrow column.
    const research: Record<string, string> = {};
    for (const p of [alice, candidate]) {
      const t = await s.insertToken({
        principalId: p.id,
        label: 'Research',
        hash: `${p === alice ? 'r' : 's'}${'2'.repeat(63)}`,
        scopes: ['inbox'],
        expiresAt: null,
      });
      research[p.id] = t.id;
    }
    // More calls on the activity record than a page shows, with long words in what was sent.
    for (const p of [alice, candidate])
      await s.recordActivity(
        Array.from({ length: ROWS }, (_, i) => ({
          principalId: p.id,
          tokenId: i % 2 ? research[p.id]! : asker[p.id]!,
          tool: i % 5 ? 'ask_agent' : WORD.slice(0, 64),
          outcome: (['done', 'refused', 'queued'] as const)[i % 3]!,
          code: ['', 'claim_without_artifact', 'counterpart_not_in_mandate'][i % 3] || null,
          decisionId: i % 3 === 2 ? `dc_${i}` : null,
          summary: JSON.stringify({ to: handle('member', i), question: LONG }),
          at: at(-i * 60_000),
        })),
      );
    // Members with the longest handles and long names, each reviewing the candidate,
    // questions both ways, evidence, and decisions pending, decided and stale.
    for (let i = 0; i < ROWS; i++) {
      const h = handle('member', i);
      await club.add(h, 'member', { name: `${WORD} ${i}` });
      const m = (await s.getPrincipalByHandle(h))!;
      await s.updateProfile(m.id, { headline: LONG });
      await s.addReview({
        reviewerId: m.id,
        candidateId: candidate.id,
        verdict: i % 2 ? 'support' : 'oppose',
        note: LONG,
      });
      for (const p of [alice, candidate]) {
        await s.addEvidence({
          principalId: p.id,
          origin: i % 2 ? 'manual' : 'document',
          claim: LONG,
          artifactRef: ADDRESS,
        });
        const q = await s.createQuestion({ askerId: m.id, targetId: p.id, question: LONG });
        await s.answerQuestion(q.id, LONG, at(0));
        await s.createQuestion({ askerId: p.id, targetId: m.id, question: LONG });
        const common = { principalId: p.id, tokenId: asker[p.id]!, tool: 'ask_agent' };
        await s.createDecision({
          ...common,
          arguments: { to: h, question: LONG },
          reasonCode: 'counterpart_not_in_mandate',
          reason: `Your principal's mandate lets you consult ${handle('member', 0)} without asking first; ${h} is not among them.`,
        });
        const d = await s.createDecision({
          ...common,
          arguments: { to: h, question: LONG },
          reasonCode: 'daily_question_limit',
          reason: "Your principal's mandate allows 3 questions a day and 3 were asked today (UTC).",
        });
        if (i === ROWS - 1) {
          await s.closeStale(
            d.id,
            {
              ok: false,
              refusal: {
                code: 'stale_token_revoked',
                reason: `The asking token was revoked. ${WORD}`,
                next: 'Nothing.',
              },
            },
            at(0),
          );
        } else await s.claimDecision(d.id, i % 2 ? 'denied' : 'approved', LONG, at(0));
      }
    }
    for (const p of [alice, candidate]) {
      for (let i = 0; i < 3; i++) {
        await s.addPasskey({
          id: `${p.id}-key-${i}`,
          principalId: p.id,
          publicKey: 'AA',
          counter: 0,
          transports: [],
          label: `laptop ${WORD}`.slice(0, 64),
        });
      }
    }
  });
  after(async () => {
    await browser?.close();
    await club?.close();
  });

  /**
   * Measures the page as it stands at both widths, and keeps a screenshot of each width at
   * which it fails (of each width with WARDEN_LAYOUT_SCREENSHOTS=1).
   */
  async function check(page: Page, name: string): Promise<void> {
    const dir = join(process.cwd(), 'screenshots');
    mkdirSync(dir, { recursive: true });
    visited.add(new URL(page.url()).pathname);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const m = await measure(page);
      results.push({ page: name, width, m });
      if (EVERY_SCREENSHOT || problemsOf(m).length > 0)
        await page.screenshot({ path: join(dir, `layout-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function signedIn(who: string): Promise<{ page: Page; close: () => Promise<void> }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, club.base);
    await page.goto(await club.link(who));
    await page.getByRole('button', { name: 'Continue and sign in' }).click();
    await page.waitForURL(/\/console\/(?:$|passkeys)/);
    return {
      page,
      close: async () => {
        assert.deepEqual(watch.problems, []);
        await context.close();
      },
    };
  }

  /** The pages every principal has, then the ones reached by a form. */
  async function principalPages(page: Page, who: string): Promise<void> {
    for (const [name, path] of [
      ['overview', '/console/'],
      ['mandate', '/console/mandate'],
      ['tokens', '/console/tokens'],
      ['tokens-page-2', '/console/tokens?page=2'],
      ['decisions', '/console/decisions'],
      ['activity', '/console/activity'],
      ['profile', '/console/profile'],
      ['evidence', '/console/evidence'],
      ['consultations', '/console/consultations'],
      ['passkeys', '/console/passkeys'],
    ] as const) {
      await page.goto(club.base + path);
      await check(page, `${who}-${name}`);
    }
    await page.goto(`${club.base}/console/mandate`);
    // A narrower mandate, so the preview has tools to lose.
    await page.locator('input[name=scope]:checked').last().uncheck();
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    await check(page, `${who}-mandate-preview`);
    await page.goto(`${club.base}/console/tokens`);
    await page.getByLabel(/^Label/).fill(label(99).slice(0, 60));
    await page.getByRole('button', { name: 'Continue…' }).click();
    await page.locator('.refusal').waitFor();
    await check(page, `${who}-tokens-refused`);
    await page.locator('#issue-form input[name=scope]').first().check();
    await page.getByRole('button', { name: 'Continue…' }).click();
    await page.getByRole('button', { name: 'Issue the token' }).waitFor();
    await check(page, `${who}-token-confirm`);
    await page.getByRole('button', { name: 'Issue the token' }).click();
    await page.locator('#secret').waitFor();
    await check(page, `${who}-token-issued`);
    await page.goto(`${club.base}/console/tokens`);
    await page
      .getByRole('button', { name: /^Revoke/ })
      .first()
      .click();
    await page.waitForURL(/\/revoke$/);
    await check(page, `${who}-token-revoke`);
    await page.goto(`${club.base}/console/decisions`);
    await page
      .getByRole('button', { name: /Do it myself/ })
      .first()
      .click();
    await page.waitForURL(/\/reissue$/);
    await check(page, `${who}-decision-reissue`);
  }

  void it('as a member who is the operator', async () => {
    const { page, close } = await signedIn('alice');
    await principalPages(page, 'member');
    for (const [name, path] of [
      ['operator', '/console/operator'],
      ['operator-page-2', `/console/operator?after=${handle('member', 20)}`],
      ['operator-candidate', `/console/operator/principal?h=${handle('candidate', 1)}`],
      ['operator-member', `/console/operator/principal?h=${handle('member', 3)}`],
    ] as const) {
      await page.goto(club.base + path);
      await check(page, name);
    }
    await page.getByRole('button', { name: 'Make a sign-in link' }).click();
    await page.locator('#login-link').waitFor();
    await check(page, 'operator-link');
    await page.getByRole('button', { name: 'Suspend…' }).click();
    await page.waitForURL(/\/status$/);
    await check(page, 'operator-suspend');
    // The consent page an OAuth client sends the principal to, for a client with a long name.
    const r = await register(club.base, CALLBACK, `Club Desk ${WORD}`);
    await page.goto(club.base + authorizeUrl(club, String(r.body['client_id']), pkce()));
    await page.waitForURL(/\/console\/oauth\//);
    await check(page, 'consent');
    await close();
  });

  void it('as a candidate', async () => {
    const { page, close } = await signedIn(handle('candidate', 1));
    await principalPages(page, 'candidate');
    await close();
  });

  void it('signed out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const [name, path] of [
      ['signin', '/console/signin'],
      ['link', `/console/link?t=${'A'.repeat(43)}`],
      ['link-refused', '/console/link?t=short'],
      ['not-found', '/console/no-such-page'],
    ] as const) {
      await page.goto(club.base + path);
      await check(page, name);
    }
    const r = await register(club.base, CALLBACK, `Club Desk ${WORD}`);
    await page.goto(club.base + authorizeUrl(club, String(r.body['client_id']), pkce()));
    await page.waitForURL(/\/console\/oauth\//);
    await check(page, 'consent-signed-out');
    await context.close();
  });

  void it('no page scrolls sideways, none hides a column or an action, none breaks an ordinary word', (t) => {
    const failed: string[] = [];
    for (const { page, width, m } of results) {
      const fits = m.scrollWidth <= m.innerWidth;
      t.diagnostic(
        `${page} @${width}: scrollWidth ${m.scrollWidth} <= innerWidth ${m.innerWidth}: ${fits ? 'yes' : 'NO'}`,
      );
      const problems = problemsOf(m);
      if (problems.length) failed.push(`${page} @${width}px:\n    ${problems.join('\n    ')}`);
    }
    assert.ok(results.length >= 60, `${results.length} measurements`);
    // Every page the console serves was measured: a new page fails here until it is added above.
    const unvisited = ROUTES.filter((r) => r.method === 'GET')
      .map((r) => r.path)
      .filter((path) => ![...visited].some((v) => (typeof path === 'string' ? v === path : path.test(v))));
    assert.deepEqual(unvisited, []);
    assert.deepEqual(failed, []);
  });
});
