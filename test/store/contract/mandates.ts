import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Mandate } from '../../../src/core/mandate.ts';
import { useStore, type Backend } from './backend.ts';

export function mandateContract(backend: Backend): void {
  void describe('mandates', () => {
    const store = useStore(backend);
    const principal = () => store().createPrincipal({ handle: 'alice', status: 'member', displayName: 'A' });

    void it('round-trips every term', async () => {
      const p = await principal();
      const m: Mandate = {
        scopes: ['vouch', 'inbox'],
        consult: { counterparts: ['carol', 'bob', 'carol'], dailyLimit: null },
        reviewsNeedApproval: false,
      };
      const expected: Mandate = {
        scopes: ['inbox', 'vouch'],
        consult: { counterparts: ['bob', 'carol'], dailyLimit: null },
        reviewsNeedApproval: false,
      };
      assert.deepEqual(await store().setMandate(p.id, m), expected);
      assert.deepEqual(await store().getMandate(p.id), expected);
      const back: Mandate = {
        scopes: [],
        consult: { counterparts: 'any', dailyLimit: 0 },
        reviewsNeedApproval: true,
      };
      await store().setMandate(p.id, back);
      assert.deepEqual(await store().getMandate(p.id), back);
    });

    void it('strips mandate:write when set, and when a stored row holds it', async () => {
      const p = await principal();
      const m = await store().setMandate(p.id, {
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
    });

    void it('sets a mandate for a principal whose row is missing', async () => {
      const p = await principal();
      await store().sql.run('DELETE FROM mandates WHERE principal_id = ?', [p.id]);
      assert.deepEqual((await store().getMandate(p.id)).scopes, []);
      const m: Mandate = {
        scopes: ['inbox'],
        consult: { counterparts: 'any', dailyLimit: 2 },
        reviewsNeedApproval: true,
      };
      assert.deepEqual(await store().setMandate(p.id, m), m);
      assert.deepEqual(await store().getMandate(p.id), m);
    });
  });
}
