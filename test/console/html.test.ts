// Compiled by `tsc --noEmit`: each `@ts-expect-error` must be an error, so if a plain
// string or raw member text ever became assignable to Html, the typecheck fails.
// At run time the same attempts are checked to escape or throw.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { html, serialize, SLOT_MAX, url, type Html } from '../../src/console/html.ts';
import { layout } from '../../src/console/layout.ts';
import { memberText } from '../../src/untrusted/index.ts';

const evil = '<script>window.__xss=1</script>';
const mt = memberText(evil, 'mallory');

void test('a string or member text is not Html: no page, layout or response accepts one', () => {
  // @ts-expect-error a plain string is not Html
  const fromString: Html = evil;
  // @ts-expect-error raw member text is not Html
  const fromMember: Html = mt;
  // @ts-expect-error a layout body must be Html, not a string (forced, it is escaped as text)
  assert.doesNotMatch(serialize(layout({ title: 't', session: null, body: evil })), /<script>/);
  // @ts-expect-error nor member text
  assert.doesNotMatch(serialize(layout({ title: 't', session: null, body: mt })), /<script>/);
  // @ts-expect-error serialize takes Html only (forced, it throws)
  assert.throws(() => serialize(evil), TypeError);
  assert.equal(typeof fromString, 'string');
  assert.equal(typeof fromMember, 'object');
});

void test('every interpolation is escaped: strings, numbers, member text, arrays', () => {
  const out = serialize(html`<p title="${evil}">${evil}${mt}${[evil, mt]}${42}</p>`);
  assert.doesNotMatch(out, /<script>/);
  assert.match(out, /^<p title="&lt;script&gt;window\.__xss&#61;1&lt;\/script&gt;">/);
  // Member text is made readable for a person first (as the CLI prints it), then escaped:
  // markup stays markup to read, not the [U+003C] notation a model is given.
  assert.match(out, /&lt;script&gt;window\.__xss&#61;1&lt;\/script&gt;&lt;script&gt;/);
  assert.doesNotMatch(out, /U\+003C/);
  assert.match(out, /42<\/p>$/);
});

void test('what a member or a client wrote shows its hidden characters, and its markup as text to read', () => {
  const cases: [raw: string, shown: string][] = [
    ['\u202Egnp.exe\u202C harmless.png', '[U+202E]gnp.exe[U+202C] harmless.png'],
    ['a\u2066b\u2069\u200Fc', 'a[U+2066]b[U+2069][U+200F]c'],
    ['zero\u200Bwidth\u200Djoin\u2060er\uFEFF', 'zero[U+200B]width[U+200D]join[U+2060]er[U+FEFF]'],
    ['tags\u{E0041}\u{E0042}', 'tags[U+E0041][U+E0042]'],
    ['\u001b[31mred\u001b[0m', '[U+001B][31mred[U+001B][0m'],
    ['c1\u009b2J\u0085', 'c1[U+009B]2J[U+0085]'],
    ['<b>&amp;</b>', '&lt;b&gt;&amp;amp;&lt;/b&gt;'],
    ['Tom & Jerry <3 AT&T', 'Tom &amp; Jerry &lt;3 AT&amp;T'],
    ['café, 日本語, 👩\u200D💻 ❤\uFE0F', 'café, 日本語, 👩\u200D💻 ❤\uFE0F'],
    ['two\nlines', 'two\nlines'],
  ];
  for (const [raw, shown] of cases) {
    assert.equal(serialize(html`<p>${raw}</p>`), `<p>${shown}</p>`, `a string: ${JSON.stringify(raw)}`);
    assert.equal(serialize(html`<p>${memberText(raw, 'm')}</p>`), `<p>${shown}</p>`, 'member text');
    assert.equal(
      serialize(html`<input value="${raw}" />`),
      `<input value="${shown.replace(/=/g, '&#61;')}" />`,
      'an attribute',
    );
  }
  // A string is never cut; member text in a list is, at SLOT_MAX.
  const longText = '\u202E'.repeat(SLOT_MAX + 10);
  assert.equal(serialize(html`${longText}`), '[U+202E]'.repeat(SLOT_MAX + 10));
  assert.ok(serialize(html`${memberText(longText, 'm')}`).endsWith('…'));
});

void test('Html nests without being escaped twice; null, undefined and false print nothing', () => {
  const inner = html`<b>${'a&b'}</b>`;
  assert.equal(serialize(html`<i>${inner}${null}${undefined}${false}</i>`), '<i><b>a&amp;b</b></i>');
});

void test('text cannot go where a URL, style or handler goes, however escaped', () => {
  for (const make of [
    () => html`<a href="${'javascript:alert(1)'}">x</a>`,
    () => html`<img src=${'x'} />`,
    () => html`<div style="${'color:red'}"></div>`,
    () => html`<div onclick="${'go()'}"></div>`,
    () => html`<form action="${'https://evil.example/'}"></form>`,
    () => html`<a href="${mt}">x</a>`,
  ]) {
    assert.throws(make, /Only Html/);
  }
  assert.equal(
    serialize(html`<a href="${url('/console/x', { h: 'a b&c' })}">x</a>`),
    '<a href="/console/x?h&#61;a+b%26c">x</a>',
  );
});

void test('the tag refuses a forged strings array', () => {
  const forged = Object.assign(['<script>', '</script>'], { raw: ['<script>', '</script>'] });
  assert.throws(() => html(forged as unknown as TemplateStringsArray, 'x'), /tagged template/);
});

void test('no console file writes markup by any other route (innerHTML, document.write, string pages)', () => {
  const root = fileURLToPath(new URL('../../src/console/', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(
      text,
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment/,
      file,
    );
    if (!file.endsWith('html.ts')) assert.doesNotMatch(text, /\bmake\(|res\.end\(`/, file);
  }
});
