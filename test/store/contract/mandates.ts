import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultMandate, type Mandate } from '../../../src/core/mandate.ts';
import { useStore, type Backend } from './backend.ts';

export function mandateContract(backend: Backend): void {
  void describe('mandates', () => {
    const store = useStore(backend);
    const principal = () => store().createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });

    void it('round-trips every term', async () => {
      const p = await principal();
      await store().createPrincipal({ handle: 'dave', status: 'member', displayName: 'D' });
      const m: Mandate = {
        scopes: ['vouch', 'inbox'],
        consult: { counterparts: ['carol', 'bob', 'carol'], dailyLimit: null },
        reviewsNeedApproval: false,
        answer: { counterparts: ['dave', 'bob', 'dave'] },
        profile: { inboxNeedsApproval: false, nameNeedsApproval: false, textNeedsApproval: true },
        selfReportsNeedApproval: false,
        denialWindowDays: 7,
      };
      const expected: Mandate = {
        ...m,
        scopes: ['inbox', 'vouch'],
        consult: { counterparts: ['bob', 'carol'], dailyLimit: null },
        answer: { counterparts: ['bob', 'dave'] },
      };
      assert.deepEqual(await store().setMandate(p.id, m), expected);
      assert.deepEqual(await store().getMandate(p.id), expected);
      const back: Mandate = {
        ...defaultMandate(),
        scopes: [],
        consult: { counterparts: 'any', dailyLimit: 0 },
        answer: { counterparts: 'any' },
        denialWindowDays: 0,
      };
      await store().setMandate(p.id, back);
      assert.deepEqual(await store().getMandate(p.id), back);
    });

    void it('strips mandate:write when set, and when a stored row holds it', async () => {
      const p = await principal();
      const m = await store().setMandate(p.id, {
        ...defaultMandate(),
        scopes: ['mandate:write', 'inbox'],
        consult: { counterparts: 'any', dailyLimit: 5 },
        reviewsNeedApproval: true,
      });
      assert.deepEqual(m.scopes, ['inbox']);
      const stored = await store().sql.get('SELECT scopes FROM mandates WHERE principal_id = ?', [p.id]);
      assert.equal(String(stored?.['scopes']).includes('mandate:write'), false);
      await store().sql.run('UPDATE mandates SET scopes = ? WHERE principal_id = ?', [
        JSON.stringify(['mandate:write', 'consult', 'no-such-scope']),
        p.id,
      ]);
      assert.deepEqual((await store().getMandate(p.id)).scopes, ['consult']);
    });

    void it('grants nothing to a principal it does not know', async () => {
      const m = await store().getMandate('pr_missing');
      assert.deepEqual(m.scopes, []);
      assert.equal(m.consult.dailyLimit, 0);
      assert.deepEqual(m.answer.counterparts, []);
      assert.equal(m.selfReportsNeedApproval, true);
    });

    void it('reads a row from before the terms column with the default terms, losing nothing', async () => {
      const p = await principal();
      const saved = await store().setMandate(p.id, {
        ...defaultMandate(),
        scopes: ['inbox', 'consult'],
        consult: { counterparts: ['alice'], dailyLimit: 4 },
        reviewsNeedApproval: false,
      });
      const d = defaultMandate();
      const terms = {
        answer: d.answer,
        profile: d.profile,
        selfReportsNeedApproval: d.selfReportsNeedApproval,
        denialWindowDays: d.denialWindowDays,
      };
      for (const stored of [
        '{}',
        'not json',
        '[]',
        '{"denial_window_days":"ten","inbox_needs_approval":1}',
      ]) {
        await store().sql.run('UPDATE mandates SET terms = ? WHERE principal_id = ?', [stored, p.id]);
        assert.deepEqual(await store().getMandate(p.id), { ...saved, ...terms }, stored);
      }
      await store().sql.run('UPDATE mandates SET terms = ? WHERE principal_id = ?', [
        '{"self_reports_need_approval":false}',
        p.id,
      ]);
      assert.deepEqual(await store().getMandate(p.id), {
        ...saved,
        ...terms,
        selfReportsNeedApproval: false,
      });
    });

    void it('sets a mandate for a principal whose row is missing', async () => {
      const p = await principal();
      await store().sql.run('DELETE FROM mandates WHERE principal_id = ?', [p.id]);
      assert.deepEqual((await store().getMandate(p.id)).scopes, []);
      const m: Mandate = {
        ...defaultMandate(),
        scopes: ['inbox'],
        consult: { counterparts: 'any', dailyLimit: 2 },
      };
      assert.deepEqual(await store().setMandate(p.id, m), m);
      assert.deepEqual(await store().getMandate(p.id), m);
    });
  });
}
