// Words for people: the console's glossary names every tool, every refusal an agent's call
// can meet and every permission, and a page that shows a tool id, a refusal code or an
// HTTP status outside a <details> disclosure is caught (the check every audited page
// state of a11y.test.ts passes through, shown here to fail).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { REFUSALS } from '../../src/core/refusals/catalogue.ts';
import { SCOPES } from '../../src/core/scopes.ts';
import { ACTS, CODES, codeWords, roleOf, SCOPE_WORDS } from '../../src/console/glossary.ts';
import { buildRegistry } from '../../src/tools/index.ts';
import { browserSkip, launchBrowser } from '../helpers/console.ts';
import { jargonOn } from '../helpers/jargon.ts';

void describe('the glossary', () => {
  void it('names every tool the club serves, as seeing or acting as its annotations say', () => {
    for (const t of buildRegistry().all()) {
      const act = ACTS[t.spec.name];
      assert.ok(act, `${t.spec.name} has no words in the glossary`);
      const readOnly = t.spec.annotations?.readOnlyHint === true;
      assert.equal(act.kind, readOnly ? 'see' : 'do', `${t.spec.name}: kind against readOnlyHint`);
      assert.ok(act.can.length > 10 && !act.can.includes('_'), t.spec.name);
    }
    assert.deepEqual(
      Object.keys(ACTS).sort(),
      buildRegistry()
        .all()
        .map((t) => t.spec.name)
        .sort(),
      'no words for a tool the club does not serve',
    );
  });

  void it("says every refusal an agent's call can meet, and every reason a request waits, to the member", () => {
    const missing = Object.entries(REFUSALS)
      .filter(([, e]) => e.families.includes('tool') || e.families.includes('decision'))
      .filter(([code]) => !Object.hasOwn(CODES, code))
      .map(([code]) => code);
    assert.deepEqual(missing, []);
    for (const [code, w] of Object.entries(CODES)) {
      assert.ok(Object.hasOwn(REFUSALS, code), `${code} is not a code of the catalogue`);
      assert.ok(!/[a-z]+_[a-z]+/.test(w.said + w.todo), `${code}: words, not ids`);
    }
    assert.match(codeWords('no_such_code').said, /refused/);
  });

  void it('says what every permission lets an agent see and do, and which act in the member’s name', () => {
    for (const s of SCOPES) {
      const w = SCOPE_WORDS[s];
      assert.ok(w.see !== null || w.do !== null, s);
      assert.equal(w.risky, w.do !== null, `${s}: a permission that acts in your name is marked`);
    }
  });

  void it('names roles as people do', () => {
    assert.equal(roleOf({ status: 'member', operator: false }), 'Member');
    assert.equal(roleOf({ status: 'candidate', operator: false }), 'Candidate');
    assert.equal(roleOf({ status: 'member', operator: true }), 'Operator');
  });
});

void describe('the jargon check', { skip: browserSkip() }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  void it('finds a tool id, a code and an HTTP status shown, and none folded in <details>', async () => {
    const page = await browser.newPage();
    await page.setContent(`<main>
      <h3><code>review_candidate</code> asked by token “laptop”</h3>
      <p>Refused: <code>counterpart_not_in_mandate</code>; its next request gets HTTP 401.</p>
      <p class="code">Code: <code>conflict</code></p>
      <details><summary>Details</summary>Tool <code>ask_agent</code>, code <code>not_found</code>, 404</details>
      <p>Review candidates, research and a conflict of interest: ordinary words.</p>
    </main>`);
    const found = await jargonOn(page);
    assert.deepEqual(
      found.map((f) => f.split(' ')[0]).sort(),
      ['401', 'HTTP', 'conflict', 'counterpart_not_in_mandate', 'review_candidate'],
      found.join('\n'),
    );
    await page.setContent(`<details><summary>Details</summary><code>get_profile</code> HTTP 404</details>`);
    assert.deepEqual(await jargonOn(page), []);
    await page.setContent(`<details><summary>get_profile</summary>…</details>`);
    assert.equal((await jargonOn(page)).length, 1, 'a summary is shown');
    await page.close();
  });
});
