import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from '../db/migrations/index.js';
import { SCOPE, balanceOf, ledgerSum, sale, testSeed } from '../testing/fixture.js';
import { SlowStatements } from '../testing/slow-statements.js';
import { createEmbeddedEngine, type EmbeddedEngine } from './create-embedded-engine.js';

/**
 * A refund and its sale whose transactions overlap. On PostgreSQL (READ COMMITTED) each would
 * miss the other's uncommitted row; lockSale serialises them. Overlap is forced with a slow table
 * (no mock): the first one's transaction is held open while the second one starts.
 */
describe.each(testDialects())('a sale and its refund in flight at once on $name', ({ name }) => {
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

  it('the refund still committing when its sale arrives: the sale sees it and gives the points back', async () => {
    const command = sale({ totalMinor: 6000 });
    slow.set('redemptions', 250); // the refund of an unknown sale looks for redemptions to re-credit
    const refund = engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1' });
    await sleep(80);
    const earned = await engine.earn(command);
    expect(await refund).toMatchObject({ status: 'NOTHING_TO_REVERSE' });
    expect(earned).toMatchObject({ status: 'processed', pointsEarned: 0 });
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1200);
    expect(await ledgerSum(database.db, 'MBR-0001')).toBe(1200);
  });

  it('the sale still committing when its refund arrives: the refund finds it and reverses it', async () => {
    const command = sale({ totalMinor: 6000, discountCodes: [{ code: 'LOYAL-7QX2' }] });
    slow.set('reward_instances', 250); // the sale marks its reward code used
    const earned = engine.earn(command);
    await sleep(80);
    const refund = await engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1' });
    expect(await earned).toMatchObject({ status: 'processed', pointsEarned: 60 });
    expect(refund).toMatchObject({ status: 'REVERSED', pointsReversed: 60 });
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1200);
    expect(await ledgerSum(database.db, 'MBR-0001')).toBe(1200);
  });
});
