import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { Verdict } from '../../src/compat/index.ts';
import { parseSemver, versionFindings } from '../../src/compat/surfaces/version.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'warden-gate.js');
const id = (version: string) => ({ name: 'files', version });

describe('the announced version against the change', () => {
  // old, new, the verdict of everything else, and the rule raised (with the bump it names).
  const cases: [string, string, Verdict, string | null, string?][] = [
    ['1.4.2', '2.0.0', 'breaking', null],
    ['1.4.2', '1.5.0', 'breaking', 'server-version-understated', 'a minor bump'],
    ['1.4.2', '1.4.3', 'breaking', 'server-version-understated', 'a patch bump'],
    ['1.4.2', 'v1.4.2', 'breaking', 'server-version-understated', 'no bump'],
    ['1.4.2', '1.3.0', 'breaking', 'server-version-understated', 'a downgrade'],
    ['v1.4.2', 'v2.0.0+build.7', 'breaking', null],
    // 0.y.z: a minor bump may break; 0.0.z: every release may.
    ['0.4.2', '0.5.0', 'breaking', null],
    ['0.4.2', '0.4.3', 'breaking', 'server-version-understated', 'a patch bump'],
    ['0.0.82', '0.0.83', 'breaking', null],
    ['0.0.82', '0.0.82+b', 'breaking', 'server-version-understated', 'no bump'],
    // A version that did not move was not announced anew: not judged, whatever changed.
    ['1.4.2', '1.4.2', 'breaking', null],
    ['0.2.0', '0.2.0', 'compatible', null],
    // Only a breaking change needs more than a forward move; an undecided one is not judged.
    ['1.4.2', '1.4.3', 'compatible', null],
    ['1.4.2', '1.3.0', 'compatible', null],
    ['1.4.2', '1.4.3', 'identical', null],
    ['1.4.2', '1.4.3', 'unknown', null],
    // Not plain semantic versions: not checked, said once beside the break.
    ['1.64.0-alpha-1', '1.64.0-alpha-2', 'breaking', 'server-version-not-semver'],
    ['1.0', '2.0', 'breaking', 'server-version-not-semver'],
    ['2024-05', '2024-06', 'compatible', null],
    // A date as a version is semver: 2025 → 2026 is a major bump.
    ['2025.7.1', '2026.1.26', 'breaking', null],
    ['2025.7.1', '2025.12.18', 'breaking', 'server-version-understated', 'a minor bump'],
  ];
  for (const [old, now, rest, rule, bump] of cases) {
    it(`${old} → ${now}, ${rest}: ${rule ?? 'nothing'}`, () => {
      const findings = versionFindings(id(old), id(now), rest);
      assert.deepEqual(
        findings.map((f) => f.rule),
        rule ? [rule] : [],
      );
      for (const f of findings) assert.equal(f.verdict, 'compatible');
      if (bump) assert.equal(findings[0]?.args.bump, bump);
    });
  }

  it('names the version a breaking release needs', () => {
    const need = (old: string, now: string) => versionFindings(id(old), id(now), 'breaking')[0]?.args.needed;
    assert.equal(need('1.4.2', '1.5.0'), '2.0.0 or later');
    assert.equal(need('0.4.2', '0.4.3'), '0.5.0 or later');
    assert.equal(need('0.0.3', 'v0.0.3'), '0.0.4 or later');
  });

  it('says nothing when a side announces no version', () => {
    assert.deepEqual(versionFindings(null, id('1.0.0'), 'breaking'), []);
    assert.deepEqual(versionFindings(id(''), id('1.0.0'), 'breaking'), []);
    assert.deepEqual(versionFindings(id('1.0.0'), undefined, 'breaking'), []);
  });

  it('reads only plain versions, of bounded length', () => {
    assert.deepEqual(parseSemver('10.20.30'), { major: 10, minor: 20, patch: 30 });
    for (const v of ['1.2', '1.2.3.4', '1.2.3-rc.1', ' 1.2.3', `1.2.${'9'.repeat(300)}`, 'x'])
      assert.equal(parseSemver(v), null, v);
  });
});

describe('warden-gate diff on two manifests announcing versions', () => {
  const manifest = (version: string, required: string[]) => ({
    server: { name: 'files', version },
    tools: [
      {
        name: 'read',
        description: 'Read a file.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required },
      },
    ],
  });
  const diff = (a: object, b: object) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-version-'));
    try {
      fs.writeFileSync(path.join(dir, 'old.json'), JSON.stringify(a));
      fs.writeFileSync(path.join(dir, 'new.json'), JSON.stringify(b));
      const r = spawnSync(process.execPath, [BIN, 'diff', 'old.json', 'new.json', '--json'], {
        cwd: dir,
        encoding: 'utf8',
      });
      const report = JSON.parse(r.stdout) as {
        servers: {
          items: { kind: string; verdict: string; findings: { rule: string; message: string }[] }[];
        }[];
      };
      const server = report.servers[0]?.items.find((i) => i.kind === 'server');
      return { code: r.status, server };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('a breaking change under a minor bump: exit 1 for the change, and the version named', () => {
    const { code, server } = diff(manifest('1.4.2', []), manifest('1.5.0', ['path']));
    assert.equal(code, 1);
    assert.equal(server?.verdict, 'compatible');
    const found = server?.findings.find((f) => f.rule === 'server-version-understated');
    assert.equal(
      found?.message,
      'the server announces "1.4.2" → "1.5.0" ("a minor bump"), though what it serves changed in a breaking way: a breaking release needs "2.0.0 or later"',
    );
  });

  it('the same change under a major bump raises nothing about the version', () => {
    const { code, server } = diff(manifest('1.4.2', []), manifest('2.0.0', ['path']));
    assert.equal(code, 1);
    assert.deepEqual(
      server?.findings.map((f) => f.rule),
      ['server-version-changed'],
    );
  });
});
