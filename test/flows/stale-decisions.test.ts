import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decide } from '../../src/admin/decisions.ts';
import { AdminRefusal } from '../../src/admin/errors.ts';
import { changeMandate } from '../../src/admin/mandate.ts';
import { issueAgentToken, revokeToken } from '../../src/admin/tokens.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { ALL_AGENT_SCOPES, ok, spyOnHandler, startClub, type TestClub } from '../helpers/club.ts';

type Queued = { status: string; decision_id: string };
type Decision = {
  id: string;
  status: string;
  outcome: { ok: boolean; refusal?: { code: string; reason: string; next: string } } | null;
};

/**
 * Approval lifts the mandate's terms, never an authority that lapsed: a queued
 * request is re-checked when it is approved, and one whose token was revoked or
 * expired, or whose scope left the mandate, is closed as stale and never runs.
 */
describe('decisions are re-checked when they are approved', () => {
  let club: TestClub;
  let deps: { store: TestClub['store']; registry: TestClub['registry']; now?: () => Date };
  let reader: Awaited<ReturnType<TestClub['connect']>>;
  let askHandler: { calls: number };
  let reviewHandler: { calls: number };

  before(async () => {
    club = await startClub();
    deps = { store: club.store, registry: club.registry };
    await club.addMember('alice');
    await club.addMember('bob');
    await club.addMember('carol');
    await club.addCandidate('dan');
    // Each case queues the same request afresh after another was denied; alice keeps no
    // denial window, so the re-check on approval is what is tested (denials: test/threats/).
    const alice = (await club.store.getPrincipalByHandle('alice'))!;
    await club.store.setMandate(alice.id, {
      ...(await club.store.getMandate(alice.id)),
      denialWindowDays: 0,
    });
    // A second token of alice's, never revoked, through which her agent reads the records.
    reader = await club.connect(
      (
        await issueAgentToken(club.store, club.registry, 'alice', {
          scopes: ALL_AGENT_SCOPES,
          label: 'reader',
        })
      ).token,
      'modern',
    );
    askHandler = spyOnHandler(club.registry, 'ask_agent');
    reviewHandler = spyOnHandler(club.registry, 'review_candidate');
  });
  after(() => club.close());

  /** A fresh agent of alice's queues one request outside her terms (counterpart not listed). */
  async function queueWith(opts: { expires?: string } = {}) {
    const issued = await issueAgentToken(club.store, club.registry, 'alice', {
      scopes: ALL_AGENT_SCOPES,
      label: 'asker',
      ...(opts.expires ? { expires: opts.expires } : {}),
    });
    const agent = await club.connect(issued.token, 'legacy');
    await changeMandate(deps, 'alice', { scopes: ALL_AGENT_SCOPES, consultCounterparts: 'carol' });
    const queued = await ok<Queued>(agent, 'ask_agent', { to: 'bob', question: 'Lunch on Friday?' });
    assert.equal(queued.status, 'queued_for_principal');
    return { tokenId: issued.record.id, decisionId: queued.decision_id };
  }

  async function readBack(id: string): Promise<Decision> {
    return (await ok<{ decisions: Decision[] }>(reader, 'list_decisions', { decision_id: id })).decisions[0]!;
  }

  const questionsToBob = async () => {
    const bob = await club.store.getPrincipalByHandle('bob');
    return (await club.store.listQuestions({ targetId: bob!.id })).length;
  };

  it('the scope left the mandate: approval closes it as stale and nothing runs', async () => {
    const { decisionId } = await queueWith();
    await changeMandate(deps, 'alice', { scopes: 'profile:write,evidence:write,inbox,mandate:read,vouch' });
    const calls = askHandler.calls;
    const before = await questionsToBob();
    await assert.rejects(
      decide(deps, 'alice', decisionId, 'approve', 'go'),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'stale' && /consult/.test(e.message),
    );
    assert.equal(askHandler.calls, calls, 'the queued request never reached its handler');
    assert.equal(await questionsToBob(), before);
    const d = await readBack(decisionId);
    assert.equal(d.status, 'stale');
    assert.equal(d.outcome?.ok, false);
    assert.equal(d.outcome?.refusal?.code, 'stale_scope_lapsed');
    assert.match(d.outcome!.refusal!.reason, /consult scope.*mandate does not grant it/);
    assert.match(d.outcome!.refusal!.next, /in person, as a new act/);
    // Decided once: a second approval is refused with the reason, and still nothing runs.
    await assert.rejects(
      decide(deps, 'alice', decisionId, 'approve', null),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'stale',
    );
    assert.equal(askHandler.calls, calls);
  });

  it('the asking token was revoked: its pending decisions are withdrawn at once, with the reason', async () => {
    const { tokenId, decisionId } = await queueWith();
    const other = await queueWith();
    await revokeToken(club.store, tokenId);
    const d = await readBack(decisionId);
    assert.equal(d.status, 'stale', 'withdrawn by the revocation, before anyone approved it');
    assert.equal(d.outcome?.refusal?.code, 'stale_token_revoked');
    assert.match(d.outcome!.refusal!.reason, new RegExp(`${tokenId}\\) was revoked on`));
    assert.equal((await readBack(other.decisionId)).status, 'pending', "another token's request stays");
    const calls = askHandler.calls;
    await assert.rejects(
      decide(deps, 'alice', decisionId, 'approve', null),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'stale' && /revoked/.test(e.message),
    );
    assert.equal(askHandler.calls, calls, 'never executed');
    await decide(deps, 'alice', other.decisionId, 'deny', null);
  });

  it('a revocation that lands after the check still stops the approval (one conditional write)', async () => {
    const { tokenId, decisionId } = await queueWith();
    // Revoke the token behind the store's back (no withdrawal): the claim itself must refuse.
    await club.store.revokeToken(tokenId, new Date().toISOString());
    const calls = askHandler.calls;
    await assert.rejects(
      decide(deps, 'alice', decisionId, 'approve', null),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'stale',
    );
    assert.equal(askHandler.calls, calls);
    assert.equal((await readBack(decisionId)).outcome?.refusal?.code, 'stale_token_revoked');
  });

  it('the asking token expired before the approval: stale, not executed', async () => {
    const { decisionId } = await queueWith({ expires: '1m' });
    const later = { ...deps, now: () => new Date(Date.now() + 5 * 60_000) };
    const calls = askHandler.calls;
    const before = await questionsToBob();
    await assert.rejects(
      decide(later, 'alice', decisionId, 'approve', null),
      (e: unknown) => e instanceof AdminRefusal && e.code === 'stale' && /expired/.test(e.message),
    );
    assert.equal(askHandler.calls, calls);
    assert.equal(await questionsToBob(), before);
    const d = await readBack(decisionId);
    assert.equal(d.status, 'stale');
    assert.equal(d.outcome?.refusal?.code, 'stale_token_expired');
  });

  it('a request still within its authority is approved and executed as before', async () => {
    const { decisionId } = await queueWith();
    const calls = askHandler.calls;
    const done = await decide(deps, 'alice', decisionId, 'approve', null);
    assert.equal(done.status, 'approved');
    assert.equal(askHandler.calls, calls + 1);
    assert.equal((await readBack(decisionId)).outcome?.ok, true);
  });

  it('the principal re-issues a stale request only in person, as a new act', async () => {
    const { tokenId, decisionId } = await queueWith();
    await revokeToken(club.store, tokenId);
    const before = await questionsToBob();
    const io = bufferIo({ WARDEN_DB: join(club.dir, 'club.db') });
    assert.equal(await main(['admin', 'decisions', 'reissue', decisionId, '--json'], io), 0, io.err.join(''));
    assert.equal(await questionsToBob(), before + 1);
    assert.equal((await readBack(decisionId)).status, 'stale', 'the stale record is left as it was');
    assert.equal(reviewHandler.calls, 0);
  });
});
