import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, refused, startClub, unwrap, type TestClub } from '../helpers/club.ts';

describe('evidence: a claim needs its artifact', () => {
  let club: TestClub;
  let dora: Awaited<ReturnType<TestClub['connect']>>;
  before(async () => {
    club = await startClub();
    dora = await club.connect((await club.addCandidate('dora')).token, 'legacy');
    // Dora lets her agents file self-reports without her (the default queues them: test/threats/).
    const me = (await club.store.getPrincipalByHandle('dora'))!;
    await club.store.setMandate(me.id, {
      ...(await club.store.getMandate(me.id)),
      selfReportsNeedApproval: false,
    });
  });
  after(() => club.close());

  const count = async () => (await ok<{ evidence: unknown[] }>(dora, 'list_evidence')).evidence.length;

  it('files self-reports and claims that point at their artifact', async () => {
    const good: Record<string, unknown>[] = [
      { origin: 'manual', claim: 'Mentored two juniors.' },
      {
        origin: 'commit',
        claim: 'Fixed the leak.',
        artifact_ref: 'https://git.example.org/dora/app/-/commit/9fceb02d0ae598e95dc970b74767f19372d61af8',
      },
      {
        origin: 'commit',
        claim: 'Added retries.',
        artifact_ref: 'https://git.example.org/dora/app@9fceb02d0ae598e95dc970b74767f19372d61af8',
      },
      {
        origin: 'commit',
        claim: 'Refactor.',
        artifact_ref: 'https://git.example.org/dora/app/commit/9FCEB02D0AE598E95DC970B74767F19372D61AF8',
      },
      {
        origin: 'document',
        claim: 'Wrote the design doc.',
        artifact_ref: 'https://docs.example.org/design/42',
      },
      { origin: 'calendar', claim: 'Ran the retro.', artifact_ref: 'webcal://cal.example.org/event/77' },
      {
        origin: 'calendar',
        claim: 'Chaired the meeting.',
        artifact_ref: '040000008200E00074C5B7101A82E008@example.org',
      },
    ];
    const stored = [];
    for (const args of good) {
      const filed = await ok<{ filed: { origin: string; claim: unknown; artifact_ref: unknown } }>(
        dora,
        'file_evidence',
        args,
      );
      assert.equal(filed.filed.origin, args['origin']);
      assert.equal(unwrap(filed.filed.claim), args['claim']);
      stored.push(filed.filed.artifact_ref === null ? null : unwrap(filed.filed.artifact_ref));
    }
    // Stored as the parser read it: one canonical form per commit, whichever way it was written.
    assert.deepEqual(stored, [
      null,
      'https://git.example.org/dora/app@9fceb02d0ae598e95dc970b74767f19372d61af8',
      'https://git.example.org/dora/app@9fceb02d0ae598e95dc970b74767f19372d61af8',
      'https://git.example.org/dora/app@9fceb02d0ae598e95dc970b74767f19372d61af8',
      'https://docs.example.org/design/42',
      'webcal://cal.example.org/event/77',
      '040000008200E00074C5B7101A82E008@example.org',
    ]);
    const listed = await ok<{ counts: Record<string, number> }>(dora, 'list_evidence');
    assert.deepEqual(listed.counts, { manual: 1, commit: 3, document: 1, calendar: 2 });
  });

  it('refuses a claim presented as from an artifact with no pointer to it, saying why, and stores nothing', async () => {
    const before = await count();
    for (const origin of ['commit', 'document', 'calendar']) {
      const r = await refused(dora, 'file_evidence', { origin, claim: 'Trust me.' });
      assert.equal(r.code, 'claim_without_artifact');
      assert.match(r.reason, /self-report in costume/, 'the reason, not only the rule');
      assert.match(r.next, /artifact_ref|manual/);
    }
    const blank = await refused(dora, 'file_evidence', {
      origin: 'commit',
      claim: 'Trust me.',
      artifact_ref: '   ',
    });
    assert.equal(blank.code, 'claim_without_artifact');
    assert.equal(await count(), before);
  });

  it('refuses a reference of the wrong form for its origin', async () => {
    const before = await count();
    const sha = '9fceb02d0ae598e95dc970b74767f19372d61af8';
    const wrong: [string, string, RegExp][] = [
      ['commit', 'yesterday', /not a repository URL/],
      ['commit', 'abc12', /not a repository URL/],
      ['commit', sha, /which repository/],
      ['commit', 'https://git.example.org/dora/app', /not a repository URL/],
      ['commit', 'https://git.example.org/dora/app@9fceb02', /not a full commit hash/],
      ['commit', `javascript:alert(1)//@${sha}`, /not javascript:/],
      ['commit', `https://git.example.org@${sha}`, /no repository/],
      ['document', 'the wiki', /space/],
      ['document', 'ftp://files.example.org/doc', /not ftp:/],
      ['document', 'javascript:alert(document.cookie)', /not javascript:/],
      ['document', 'file:///etc/passwd', /not file:/],
      ['document', '../../../etc/passwd', /not a URL/],
      ['document', 'data:text/html,<script>x</script>', /not data:/],
      ['document', 'https://user:secret@docs.example.org/x', /password/],
      ['document', 'https://docs.example.org/\u202egpj.exe', /U\+202E/],
      ['calendar', 'tuesday', /not a URL/],
      ['calendar', 'urn:<b>x</b>\u202e\u001b[31m', /U\+202E|U\+001B/],
      ['calendar', 'urn:isbn:0451450523', /not urn:/],
      ['calendar', 'javascript:alert(1)', /not javascript:/],
      ['calendar', 'x@localhost', /not a domain name/],
      ['calendar', 'evt\u{E0041}\u{E0042}@example.org', /U\+E0041/],
    ];
    for (const [origin, ref, why] of wrong) {
      const r = await refused(dora, 'file_evidence', { origin, claim: 'Did it.', artifact_ref: ref });
      assert.equal(r.code, 'artifact_ref_malformed', `${origin} ${ref}`);
      assert.match(r.reason, /points at nothing anyone could check/);
      assert.match(r.reason, why, `${origin} ${ref}: ${r.reason}`);
      assert.match(
        r.next,
        new RegExp(`Send artifact_ref as .*${origin === 'commit' ? 'full commit hash' : 'URL'}`),
      );
    }
    assert.equal(
      (
        await refused(dora, 'file_evidence', {
          origin: 'manual',
          claim: 'x',
          artifact_ref: `https://git.example.org/a@${sha}`,
        })
      ).code,
      'invalid_value',
    );
    assert.equal(await count(), before);
  });

  it("shows others' evidence as counts to strangers and as wrapped claims to members", async () => {
    const anon = await club.connect(undefined, 'legacy');
    const seenByAnon = await ok<{ evidence_counts: Record<string, number>; evidence?: unknown }>(
      anon,
      'get_profile',
      { handle: 'dora' },
    );
    assert.equal(seenByAnon.evidence_counts['commit'], 3);
    assert.equal(seenByAnon.evidence, undefined);

    const member = await club.connect((await club.addMember('erin')).token, 'modern');
    const seenByMember = await ok<{ evidence: { claim: { author: string } }[] }>(member, 'get_profile', {
      handle: 'dora',
    });
    assert.equal(seenByMember.evidence.length, 7);
    assert.ok(seenByMember.evidence.every((e) => e.claim.author === 'dora'));
    const candidates = await ok<{
      candidates: { handle: string; evidence_counts: Record<string, number> }[];
    }>(member, 'list_candidates');
    assert.deepEqual(candidates.candidates.find((c) => c.handle === 'dora')?.evidence_counts, {
      manual: 1,
      commit: 3,
      document: 1,
      calendar: 2,
    });
  });
});
