import { EngineUnavailableError } from '@loyalty-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from '../db/migrations/index.js';
import type { EngineTables } from '../db/schema.js';
import { ANN, IDS, SCOPE, balanceOf, line, sale, testSeed } from '../testing/fixture.js';
import { SlowStatements } from '../testing/slow-statements.js';
import { createEmbeddedEngine, type EmbeddedEngine } from './create-embedded-engine.js';
import type { SqlDatabase } from '@loyalty-gateway/storage';

/** A deadline `ms` from now (what the engine service derives from the x-engine-budget-ms header). */
const within = (ms: number) => ({ deadline: Date.now() + ms });

describe.each(testDialects())('call deadlines on $name: the engine never commits past them', ({ name }) => {
  let database: SqlDatabase<EngineTables>;
  let engine: EmbeddedEngine;
  const slow = new SlowStatements();
  beforeEach(async () => {
    slow.clear();
    database = await openTestDatabase<EngineTables>(name, engineMigrations);
    engine = await createEmbeddedEngine({ database: slow.wrap(database) });
    await engine.applySeed(testSeed());
  });
  afterEach(async () => {
    await engine.close();
    await database.close();
  });
  const count = async (table: 'sales' | 'redemptions' | 'refunds' | 'catalog_items') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const refused = async (call: Promise<unknown>) =>
    expect(
      await call.then(
        () => 'committed',
        (e: unknown) => e,
      ),
    ).toBeInstanceOf(EngineUnavailableError);

  it('a redemption still running at its deadline is rolled back, never committed after the caller gave up', async () => {
    const attempt = () => engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'o-1', pointsToRedeem: 100 }, within(50));
    slow.set('redemptions', 150); // answered 150 ms late, inside the redemption's transaction
    await refused(attempt());
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1200);
    expect(await count('redemptions')).toBe(0);
    slow.clear();
    const retry = await engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'o-1', pointsToRedeem: 100 }, within(1_000));
    expect(retry).toMatchObject({ status: 'REDEEMED', pointsDeducted: 100, walletBalance: 1100 });
  });

  it('an earn still running at its deadline writes nothing, and the retry is processed', async () => {
    // The code-usage update, the earn's last statement.
    slow.set('reward_instances', 150);
    const command = sale({ totalMinor: 4200, items: [line('Coffee', 2)], discountCodes: [{ code: 'LOYAL-7QX2' }] });
    await refused(engine.earn(command, within(50)));
    expect(await count('sales')).toBe(0);
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1200);
    const code = () =>
      database.db.selectFrom('reward_instances').select('status').where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow();
    expect(await code()).toEqual({ status: 'available' });
    slow.clear();
    expect(await engine.earn(command, within(1_000))).toMatchObject({ status: 'processed', pointsEarned: 42 });
  });

  it('a refund and a catalog sync past their deadline are rolled back, not committed', async () => {
    const command = sale({ totalMinor: 4200 });
    await engine.earn(command);
    slow.set('refunds', 150).set('catalog_items', 150);
    await refused(engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1' }, within(50)));
    await refused(engine.catalogSync({ ...SCOPE, items: [{ externalId: 'p-1', name: 'Latte', isActive: true }] }, within(50)));
    expect([await count('refunds'), await count('catalog_items')]).toEqual([0, 0]);
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1242);
    slow.clear();
    expect((await engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1' }, within(1_000))).status).toBe(
      'REVERSED',
    );
  });

  it('a deadline already passed: refused before any work; no deadline: committed however slow', async () => {
    await refused(
      engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'o-2', rewardId: IDS.points }, { deadline: Date.now() - 1 }),
    );
    await refused(engine.eligibility({ ...SCOPE, customer: ANN }, { deadline: Date.now() - 1 }));
    slow.set('redemptions', 100);
    expect((await engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'o-2', rewardId: IDS.points })).status).toBe('REDEEMED');
    expect((await engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'o-3', pointsToRedeem: 5 }, within(2_000))).status).toBe(
      'REDEEMED',
    );
  });
});
