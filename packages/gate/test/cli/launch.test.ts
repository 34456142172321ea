import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareLaunch, isExactVersion, renderMessage, type Launch } from '../../src/compat/index.ts';

const npx = (spec: string, version: string | null): Launch => {
  const at = spec.indexOf('@', 1);
  const [name, requested] = at < 0 ? [spec, null] : [spec.slice(0, at), spec.slice(at + 1)];
  return { transport: 'stdio', command: 'npx', args: ['-y', spec], package: { name, requested, version } };
};
const rules = (before: Launch | undefined, after: Launch) =>
  compareLaunch(before, after).findings.map((f) => `${f.rule}:${f.verdict}`);

describe('a launch against the pinned one', () => {
  it('an exact version names one release; a tag, a range or nothing does not', () => {
    for (const v of ['1.2.3', 'v1.2.3', '=1.2.3', '1.0.0-beta.1', '1.0.0+build.5'])
      assert.ok(isExactVersion(v), v);
    for (const v of [null, 'latest', '^1.2.3', '~1.2', '1.x', '>=1.0.0', '1.2', ''])
      assert.ok(!isExactVersion(v), String(v));
  });

  it('the same exact launch is identical', () => {
    const item = compareLaunch(npx('srv@1.0.0', '1.0.0'), npx('srv@1.0.0', '1.0.0'));
    assert.equal(item.verdict, 'identical');
    assert.equal(item.kind, 'launch');
  });

  it('a new exact version of the same package is compatible, not a new launch', () => {
    assert.deepEqual(rules(npx('srv@1.0.0', '1.0.0'), npx('srv@1.1.0', '1.1.0')), [
      'launch-package-version-changed:compatible',
    ]);
  });

  it('an unpinned package is unknown even when nothing changed, and says what to pin', () => {
    const item = compareLaunch(npx('srv@latest', '2.0.0'), npx('srv@latest', '2.0.0'));
    assert.equal(item.verdict, 'unknown');
    assert.equal(item.change, 'unchanged');
    const [finding] = item.findings;
    assert.equal(finding?.rule, 'launch-unpinned');
    assert.match(renderMessage(finding!), /pin it as "srv@2\.0\.0"$/);
    assert.deepEqual(rules(undefined, npx('srv', null)), ['launch-unpinned:unknown']);
  });

  it('offline, the version pinned is the advice, and the reason says why', () => {
    const item = compareLaunch(npx('srv@^2', '2.0.0'), npx('srv@^2', null), {
      unresolved: 'not looked up: --offline',
    });
    assert.match(
      renderMessage(item.findings[0]!),
      /pin it as "srv@2\.0\.0" \(the version pinned; not looked up: --offline\)$/,
    );
  });

  it('a latest that moved is both a new version and unpinned', () => {
    assert.deepEqual(rules(npx('srv@latest', '2.0.0'), npx('srv@latest', '2.1.0')), [
      'launch-package-version-changed:compatible',
      'launch-unpinned:unknown',
    ]);
  });

  it('another package, command, argument or URL is a different launch: unknown', () => {
    assert.deepEqual(rules(npx('srv@1.0.0', '1.0.0'), npx('other@1.0.0', '1.0.0')), [
      'launch-changed:unknown',
    ]);
    const node: Launch = { transport: 'stdio', command: 'node', args: ['server.js'] };
    assert.deepEqual(rules(node, { ...node, args: ['server.js', '--admin'] }), ['launch-changed:unknown']);
    const web: Launch = { transport: 'http', url: 'https://a.example/mcp' };
    assert.deepEqual(rules(web, { transport: 'http', url: 'https://b.example/mcp' }), [
      'launch-changed:unknown',
    ]);
    assert.deepEqual(rules(web, web), []);
  });
});
