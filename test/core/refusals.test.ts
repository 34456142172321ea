// The refusal catalogue, audited as the tool registry is: every code given somewhere by the
// family it claims, documented in one line, and asserted by some test; and no code given in a
// refusal position that the catalogue does not list.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { GATE_REFUSALS } from '@warden-mcp/gate/refusals';
import { REFUSALS, type RefusalCode, type RefusalFamily } from '../../src/core/refusals/catalogue.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const THIS_FILE = relative(ROOT, import.meta.filename);

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sources(p);
    return /\.(ts|js)$/.test(e.name) ? [{ path: p, text: readFileSync(join(ROOT, p), 'utf8') }] : [];
  });
}

/** Where each family gives its refusals. */
const FAMILY_DIRS: Record<RefusalFamily, readonly string[]> = {
  tool: ['src/tools', 'src/core'],
  admin: ['src/admin', 'src/core'],
  console: ['src/console'],
  decision: ['src/core', 'src/admin', 'src/tools'],
  http: ['src/server'],
  gate: ['packages/gate/src/enforce', 'packages/gate/src/proxy'],
};

/** The catalogue itself names every code: it does not count as a use. */
const CATALOGUE_FILES = /^(src\/core\/refusals\/|packages\/gate\/src\/enforce\/refusals\.ts$)/;
const byDir = new Map(
  [...new Set(Object.values(FAMILY_DIRS).flat())].map((d) => [
    d,
    sources(d)
      .filter((f) => !CATALOGUE_FILES.test(f.path))
      .map((f) => f.text)
      .join('\n'),
  ]),
);
const SRC = [...sources('src'), ...sources('packages/gate/src')].map((f) => f.text).join('\n');
const TESTS = [...sources('test'), ...sources('packages/gate/test')]
  .filter((f) => f.path !== THIS_FILE)
  .map((f) => f.text)
  .join('\n');

const quoted = (code: string) => new RegExp(`['"\`]${code}['"\`]`);
/** A code as a test names it: quoted, or in a pattern (/link_used/), never as part of a longer word. */
const named = (code: string) => new RegExp(`(?<![A-Za-z0-9_])${code}(?![A-Za-z0-9_])`);

/**
 * Whether the text gives this code: quoted whole, or built by a template with its prefix from
 * a rest quoted anywhere in the sources (`stale_${code}` in src/admin, with 'token_revoked' in
 * src/core, gives stale_token_revoked).
 */
function gives(text: string, code: string, everywhere: string): boolean {
  if (quoted(code).test(text)) return true;
  for (let i = code.indexOf('_'); i > 0; i = code.indexOf('_', i + 1)) {
    const [prefix, rest] = [code.slice(0, i + 1), code.slice(i + 1)];
    if (text.includes(`\`${prefix}\${`) && quoted(rest).test(everywhere)) return true;
  }
  return false;
}

/**
 * Places a refusal code is written: the `code`, `error` or `reason` field of a refusal body, the
 * first argument of the refusal constructors, a WWW-Authenticate error. Each yields the code.
 */
const POSITIONS: readonly RegExp[] = [
  /\b(?:code|error|reason|reason_code|reasonCode)\s*:\s*'([a-z][a-z0-9_]*)'/g,
  /\b(?:refuse|refused|refusal|AdminRefusal)\(\s*'([a-z][a-z0-9_]*)'/g,
  /\brefuse\(\s*ctx,\s*\d+,\s*'([a-z][a-z0-9_]*)'/g,
  /\berror="([a-z][a-z0-9_]*)"/g,
];

/**
 * Written waivers: folders whose codes are not Warden's to catalogue. src/oauth answers in the
 * OAuth wire vocabulary (RFC 6749/7591: invalid_request, access_denied, …), produced and
 * checked by oidc-provider; clients branch on it as the standard says.
 */
const NOT_OURS = /^src\/oauth\//;

function codesWritten(files: readonly { path: string; text: string }[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const f of files) {
    if (NOT_OURS.test(f.path) || CATALOGUE_FILES.test(f.path)) continue;
    for (const re of POSITIONS) {
      for (const m of f.text.matchAll(re)) {
        const line = f.text.slice(0, m.index).split('\n').length;
        found.set(m[1]!, [...(found.get(m[1]!) ?? []), `${f.path}:${line}`]);
      }
    }
  }
  return found;
}

const codes = Object.keys(REFUSALS) as RefusalCode[];

describe('refusal catalogue audit', () => {
  it('holds snake_case codes, each with its families and a one-line doc', () => {
    assert.ok(codes.length >= 40, `${codes.length} codes`);
    for (const code of codes) {
      const { families, doc } = REFUSALS[code];
      assert.match(code, /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, `${code}: snake_case`);
      assert.ok(families.length > 0, `${code}: at least one family`);
      for (const f of families) assert.ok(f in FAMILY_DIRS, `${code}: unknown family ${f}`);
      assert.equal(typeof doc, 'string');
      assert.ok(doc.trim().length >= 20, `${code}: documented`);
      assert.ok(!doc.includes('\n'), `${code}: one line`);
      assert.match(doc, /[.)]$/, `${code}: a sentence`);
    }
  });

  it("lists the gate's proxy refusals as the gate documents them, and no code of its own by their names", () => {
    const gate = codes.filter((c) => REFUSALS[c].families.includes('gate'));
    assert.deepEqual(gate.sort(), Object.keys(GATE_REFUSALS).sort());
    for (const [code, { doc }] of Object.entries(GATE_REFUSALS)) {
      assert.deepEqual(REFUSALS[code as RefusalCode], { families: ['gate'], doc }, code);
    }
  });

  for (const code of codes) {
    it(`${code}: given by each of its families, and asserted by a test`, () => {
      for (const family of REFUSALS[code].families) {
        const dirs = FAMILY_DIRS[family];
        assert.ok(
          dirs.some((d) => gives(byDir.get(d)!, code, SRC)),
          `${code} is catalogued for ${family} but nothing in ${dirs.join(' or ')} gives it: remove it, or fix its families`,
        );
      }
      assert.ok(named(code).test(TESTS), `no test asserts ${code}`);
    });
  }

  it('gives no code in a refusal position that the catalogue does not list', () => {
    const written = codesWritten([...sources('src'), ...sources('packages/gate/src')]);
    assert.ok(written.size >= 30, 'the scan finds the refusals it is meant to');
    const missing = [...written]
      .filter(([code]) => !(code in REFUSALS))
      .map(([code, at]) => `${code} (${at.join(', ')})`);
    assert.deepEqual(missing, [], 'add these codes to src/core/refusals/catalogue.ts (with a doc line)');
  });

  it('the audit itself fails on what it should catch', () => {
    assert.equal(gives("refuse('made_up_code', 'x', 'y')", 'made_up_code', ''), true);
    assert.equal(gives('const x = 1;', 'made_up_code', "'made_up_code'"), false);
    assert.equal(gives('code: `stale_${code}`', 'stale_token_revoked', "stale('token_revoked')"), true);
    assert.equal(gives('code: `stale_${code}`', 'stale_token_revoked', ''), false);
    assert.equal(named('link_used').test('/used already[\\s\\S]*link_used/'), true);
    assert.equal(named('used').test("'link_used'"), false);
    const found = codesWritten([
      {
        path: 'src/x.ts',
        text: "throw new AdminRefusal('made_up_code', 'm');\nreturn { error: 'also_made_up' };",
      },
      { path: 'src/oauth/y.ts', text: "{ error: 'invalid_grant' }" },
    ]);
    assert.deepEqual([...found.keys()], ['also_made_up', 'made_up_code']);
  });
});
