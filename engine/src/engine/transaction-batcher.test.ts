import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { balanceOf, ledgerSum, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

// Group commit exists on SQLite only (PostgreSQL runs one transaction per event on its pool).
describe('group commit on sqlite', () => {
  let t: TestEngine;
  beforeEach(async () => { t = await openSeededEngine('sqlite'); });
  afterEach(async () => { await t.close(); });

  it('a failing event in a batch is rolled back alone; the others commit', async () => {
    await sql`create trigger boom before insert on sales when new.transaction_id = 'tx-boom' begin select raise(abort, 'forced failure'); end`.execute(t.db);
    const commands = Array.from({ length: 10 }, (_, i) => sale({ id: i === 4 ? 'tx-boom' : `tx-ok-${i}`, totalMinor: 1000 }));
    const results = await Promise.allSettled(commands.map((c) => t.engine.earn(c)));
    expect(results.map((r) => r.status)).toEqual(commands.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')));
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200 + 9 * 10);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1290);
    const sales = await t.db.selectFrom('sales').select('transaction_id').execute();
    expect(sales.map((s) => s.transaction_id)).not.toContain('tx-boom');
    expect(sales).toHaveLength(9);
  });

  it('duplicates inside one batch are still decided by the unique key', async () => {
    const command = sale({ totalMinor: 1000 });
    const results = await Promise.all([t.engine.earn(command), t.engine.earn(command), t.engine.earn(sale({ totalMinor: 500 }))]);
    expect(results.map((r) => r.status)).toEqual(['processed', 'duplicate', 'processed']);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1215);
  });
});
