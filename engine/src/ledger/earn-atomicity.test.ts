import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { balanceOf, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('one transaction per event on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  it('a failure after the sale row, wallet credit and ledger entry leaves nothing written', async () => {
    // Stamp progress is written after the sale, the wallet update and the ledger entry: a trigger
    // refuses a new card row, so that statement fails for real, mid-event.
    if (name === 'sqlite') {
      await sql`create trigger refuse_card before insert on balances when new.reward_id <> '' begin select raise(abort, 'no card'); end`.execute(
        t.db,
      );
    } else {
      await sql`create function refuse_card() returns trigger language plpgsql as $$ begin raise exception 'no card'; end $$`.execute(t.db);
      await sql`create trigger refuse_card before insert on balances for each row when (new.reward_id <> '') execute function refuse_card()`.execute(
        t.db,
      );
    }
    const command = sale({ totalMinor: 2000, items: [line('Coffee', 2)] });
    await expect(t.engine.earn(command)).rejects.toThrow(/no card/);
    const sales = await t.db.selectFrom('sales').select('id').execute();
    const earns = await t.db.selectFrom('ledger_entries').select('id').where('kind', '=', 'earn').execute();
    expect(sales).toHaveLength(0);
    expect(earns).toHaveLength(0);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);

    if (name === 'sqlite') await sql`drop trigger refuse_card`.execute(t.db);
    else await sql`drop function refuse_card() cascade`.execute(t.db);
    const retried = await t.engine.earn(command);
    expect(retried).toMatchObject({ status: 'processed', pointsEarned: 20 });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1220);
  });

  it('a failure in a refund leaves the refund id unused and the wallet untouched', async () => {
    const command = sale({ totalMinor: 2000 });
    await t.engine.earn(command);
    await sql`alter table ledger_entries rename to ledger_away`.execute(t.db);
    const refund = { ...command, transactionId: command.transaction.id, refundId: 'r-1' };
    await expect(t.engine.reverse(refund)).rejects.toThrow();
    await sql`alter table ledger_away rename to ledger_entries`.execute(t.db);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1220);
    expect(await t.engine.reverse(refund)).toMatchObject({ status: 'REVERSED', pointsReversed: 20 });
  });
});
