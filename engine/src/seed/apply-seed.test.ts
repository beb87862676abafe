import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '../db/testing.js';
import { createEmbeddedEngine } from '../engine/create-embedded-engine.js';
import { ANN, IDS, balanceOf, ledgerSum, openSeededEngine, sale, testSeed, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('applySeed on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => { t = await openSeededEngine(name); });
  afterEach(async () => { await t.close(); });

  const count = async (table: 'members' | 'rewards' | 'reward_instances' | 'ledger_entries' | 'outlets' | 'merchants') =>
    (await t.db.selectFrom(table).select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;

  it('is idempotent: a second apply (and a restart) changes nothing and never re-credits points', async () => {
    await t.engine.earn(sale({ totalMinor: 1000 }));
    await t.engine.redeem({ merchantId: 'm-bean', outletId: 'o-downtown', source: { vendor: 'v', storeId: 's' }, customer: ANN, externalTransactionId: 'o', rewardId: IDS.discount, orderValueMinor: 9000 });
    const before = await Promise.all((['members', 'rewards', 'reward_instances', 'ledger_entries', 'outlets', 'merchants'] as const).map(count));
    await t.engine.applySeed(testSeed());
    const restarted = await createEmbeddedEngine({ database: t.database });
    await restarted.applySeed(testSeed());
    expect(await Promise.all((['members', 'rewards', 'reward_instances', 'ledger_entries', 'outlets', 'merchants'] as const).map(count))).toEqual(before);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1210);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1210);
    const code = await t.db.selectFrom('reward_instances').select('status').where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow();
    expect(code.status).toBe('used');
  });

  it('adds what a later seed brings (a new member gets its opening points once)', async () => {
    const seed = testSeed();
    seed.merchants[0]!.members.push({ membershipId: 'MBR-0003', phone: '5550100003', points: 75 });
    await t.engine.applySeed(seed);
    await t.engine.applySeed(seed);
    expect(await balanceOf(t.db, 'MBR-0003')).toBe(75);
    const member = await t.engine.earn(sale({ customer: { type: 'phone', value: '+15550100003' } }));
    expect(member.membershipId).toBe('MBR-0003');
  });

  it('rejects broken references with paths naming the culprit, writing nothing', async () => {
    const seed = testSeed();
    const merchant = seed.merchants[0]!;
    merchant.id = 'm-new';
    merchant.issuedCodes.push({ code: 'LOYAL-ZZZ', rewardId: IDS.unknown, membershipId: 'MBR-9999' });
    await expect(t.engine.applySeed(seed)).rejects.toMatchObject({
      code: 'validation_failed',
      fields: expect.arrayContaining([
        { path: 'merchants[0].issuedCodes[2].rewardId', message: expect.stringContaining('no reward') },
        { path: 'merchants[0].issuedCodes[2].membershipId', message: expect.stringContaining('no member') },
      ]),
    });
    expect(await t.db.selectFrom('merchants').select('id').where('id', '=', 'm-new').executeTakeFirst()).toBeUndefined();
  });

  it('rejects an issued code without the engine\'s prefix', async () => {
    const seed = testSeed();
    seed.merchants[0]!.issuedCodes[0]!.code = 'PROMO-1';
    await expect(t.engine.applySeed(seed)).rejects.toMatchObject({ fields: [{ path: 'merchants[0].issuedCodes[0].code', message: 'must start with "LOYAL-"' }] });
  });

  it('persists the seed\'s code prefix for later engine instances', async () => {
    const seed = testSeed();
    seed.codePrefix = 'SHOP';
    seed.merchants[0]!.issuedCodes = [{ code: 'SHOP-1', rewardId: IDS.discount, membershipId: 'MBR-0002' }];
    seed.merchants[0]!.id = 'm-shop';
    await t.engine.applySeed(seed);
    const restarted = await createEmbeddedEngine({ database: t.database });
    const command = { ...sale({ customer: { type: 'membershipId', value: 'MBR-0002' }, discountCodes: [{ code: 'shop-1' }] }), merchantId: 'm-shop' };
    await restarted.earn(command);
    const row = await t.db.selectFrom('reward_instances').select('status').where('code', '=', 'SHOP-1').executeTakeFirstOrThrow();
    expect(row.status).toBe('used');
  });
});
