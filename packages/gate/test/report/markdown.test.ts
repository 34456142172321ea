import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fenced, mdCode, mdText } from '../../src/report/markdown.ts';
import { diff } from './pair.ts';

describe('text in the Markdown report', () => {
  for (const [raw, text] of [
    ['read_file', 'read_file'],
    ['_x_ and __proto__', '\\_x\\_ and \\_\\_proto\\_\\_'],
    ['a*b* [link](x) ~~s~~ #1', 'a\\*b\\* \\[link\\](x) \\~\\~s\\~\\~ \\#1'],
    ['x|y in a cell', 'x&#124;y in a cell'],
    ['<img src=x onerror=alert(1)> &amp;', '&lt;img src=x onerror=alert(1)&gt; &amp;amp;'],
    ['back\\slash `code`', 'back\\\\slash \\`code\\`'],
  ] as const) {
    it(`${JSON.stringify(raw)} reads as written`, () => assert.equal(mdText(raw), text));
  }

  it('code is HTML code holding the same escaped text', () => {
    assert.equal(mdCode('a|b<c>'), '<code>a&#124;b&lt;c&gt;</code>');
  });

  it('a fence is longer than any run of backticks inside it', () => {
    assert.equal(fenced('plain'), '```\nplain\n```');
    assert.equal(fenced('a ``` b ```` c', 'sh'), '`````sh\na ``` b ```` c\n`````');
  });
});

describe('the Markdown report (report/markdown.ts)', () => {
  it('markdown: a summary line and a table for a pull request', async () => {
    const { out } = await diff('markdown');
    assert.match(out, /^### Warden gate: breaking\n\n1 breaking, 1 unknown, 1 compatible in 1 server\n/);
    assert.match(out, /^\| ❌ \| tool <code>search<\/code> \| breaking \| /m);
    assert.match(out, /^\| ✅ \| tool <code>added &lt;&amp;&gt; "tool"<\/code> \| compatible \| /m);
  });
});
