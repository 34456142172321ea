import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useStore, type Backend } from './backend.ts';

/** What SqlStore relies on from every SqlExecutor. */
export function executorContract(backend: Backend): void {
  void describe('sql executor', () => {
    const store = useStore(backend);
    const insert = (id: string, handle: string) => ({
      sql: `INSERT INTO principals (id, handle, status, display_name, created_at, updated_at) VALUES (?, ?, 'member', ?, ?, ?)`,
      params: [id, handle, 'x', '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z'],
    });

    void it('runs a batch as one transaction: a failing statement undoes the ones before it', async () => {
      const sql = store().sql;
      await assert.rejects(sql.batch([insert('pr_1', 'one'), insert('pr_2', 'two'), insert('pr_3', 'one')]));
      assert.deepEqual(await sql.all('SELECT id FROM principals'), []);
      await sql.batch([insert('pr_1', 'one'), insert('pr_2', 'two')]);
      assert.deepEqual(await sql.all('SELECT id FROM principals ORDER BY id'), [
        { id: 'pr_1' },
        { id: 'pr_2' },
      ]);
    });

    void it('reports how many rows a statement changed', async () => {
      const sql = store().sql;
      await sql.batch([insert('pr_1', 'one'), insert('pr_2', 'two')]);
      assert.equal(await sql.run(`UPDATE principals SET headline = ? WHERE status = ?`, ['h', 'member']), 2);
      assert.equal(await sql.run(`UPDATE principals SET headline = ? WHERE id = ?`, ['h', 'pr_none']), 0);
    });

    void it('returns integers and counts as numbers, and undefined for no row', async () => {
      const sql = store().sql;
      await sql.batch([insert('pr_1', 'one')]);
      const row = await sql.get(
        `SELECT COUNT(*) AS n, MAX(accepts_questions) AS a FROM principals WHERE id = ?`,
        ['pr_1'],
      );
      assert.deepEqual(row, { n: 1, a: 1 });
      assert.equal(await sql.get('SELECT id FROM principals WHERE id = ?', ['pr_none']), undefined);
    });

    void it('hands rows over as arrays of the columns selected, in their order, integers as numbers', async () => {
      const sql = store().sql;
      await sql.batch([insert('pr_1', 'one'), insert('pr_2', 'two')]);
      const select = `SELECT handle, id, accepts_questions, (SELECT COUNT(*) FROM principals), NULL, 'why?'
        FROM principals WHERE status = ? ORDER BY id`;
      assert.deepEqual(await sql.allArrays(select, ['member']), [
        ['one', 'pr_1', 1, 2, null, 'why?'],
        ['two', 'pr_2', 1, 2, null, 'why?'],
      ]);
      assert.deepEqual(await sql.allArrays(select, ['none']), []);
      // One statement read both ways: each way as asked.
      const ids = 'SELECT id FROM principals WHERE status = ? ORDER BY id';
      assert.deepEqual(await sql.allArrays(ids, ['member']), [['pr_1'], ['pr_2']]);
      assert.deepEqual(await sql.all(ids, ['member']), [{ id: 'pr_1' }, { id: 'pr_2' }]);
      assert.deepEqual(await sql.allArrays(ids, ['member']), [['pr_1'], ['pr_2']]);
    });

    void it('binds placeholders in order and leaves a ? inside a string literal alone', async () => {
      const sql = store().sql;
      await sql.batch([insert('pr_1', 'one')]);
      const row = await sql.get(`SELECT 'why?' AS q, handle FROM principals WHERE id = ? AND status = ?`, [
        'pr_1',
        'member',
      ]);
      assert.deepEqual(row, { q: 'why?', handle: 'one' });
    });
  });
}
