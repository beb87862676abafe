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

  /** Another merchant (own id, own reward ids) issuing `code` to MBR-0001 on its DISCOUNT reward. */
  const newMerchant = (seed: ReturnType<typeof testSeed>, id: string, code: string) => {
    const merchant = structuredClone(seed.merchants[0]!);
    const tag = Buffer.from(id).toString('hex').padEnd(8, '0').slice(-8);
    merchant.id = id;
    merchant.rewards = merchant.rewards.map((r) => ({ ...r, id: `${tag}${r.id.slice(8)}` }));
    const discount = merchant.rewards.find((r) => r.type === 'DISCOUNT')!;
    merchant.issuedCodes = [{ code, rewardId: discount.id, membershipId: 'MBR-0001' }];
    return merchant;
  };
  const merchantCount = async () => Number((await t.db.selectFrom('merchants').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const storedPrefix = async () => (await t.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirst())?.value;

  it('bug: a later seed changed the established code prefix, killing issued codes; it is refused and writes nothing', async () => {
    const seed = testSeed();
    seed.codePrefix = 'SHOP';
    seed.merchants = [newMerchant(seed, 'm-shop', 'SHOP-1')];
    const before = await merchantCount();
    const error = await t.engine.applySeed(seed).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation_failed', fields: [{ path: 'codePrefix', message: expect.stringMatching(/"SHOP".*"LOYAL"/) }] });
    expect(await merchantCount()).toBe(before);
    expect(await storedPrefix()).toBe('LOYAL');
    // LOYAL- codes still match, on this engine and a restarted one
    const restarted = await createEmbeddedEngine({ database: t.database });
    await restarted.earn(sale({ customer: ANN, discountCodes: [{ code: 'loyal-7qx2' }] }));
    expect((await t.db.selectFrom('reward_instances').select('status').where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow()).status).toBe('used');
  });

  it('a seed that issues codes without codePrefix means the default LOYAL: refused on an engine established with another prefix', async () => {
    const other = await openSeededEngine(name, null);
    try {
      const shop = testSeed();
      shop.codePrefix = 'SHOP';
      shop.merchants[0]!.issuedCodes = [{ code: 'SHOP-1', rewardId: IDS.discount, membershipId: 'MBR-0001' }];
      await other.engine.applySeed(shop);
      const implicit = testSeed();
      delete implicit.codePrefix;
      implicit.merchants = [newMerchant(implicit, 'm-implicit', 'LOYAL-9')];
      await expect(other.engine.applySeed(implicit)).rejects.toMatchObject({ fields: [{ path: 'codePrefix', message: expect.stringContaining('"SHOP"') }] });
      expect(await other.db.selectFrom('merchants').select('id').where('id', '=', 'm-implicit').executeTakeFirst()).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('a seed without codePrefix and without issued codes (the demo) keeps the established prefix', async () => {
    const other = await openSeededEngine(name, null);
    try {
      const shop = testSeed();
      shop.codePrefix = 'SHOP';
      shop.merchants[0]!.issuedCodes = [{ code: 'SHOP-1', rewardId: IDS.discount, membershipId: 'MBR-0001' }];
      await other.engine.applySeed(shop);
      const neutral = testSeed();
      delete neutral.codePrefix;
      neutral.merchants = [{ ...newMerchant(neutral, 'm-demo', 'X-1'), issuedCodes: [] }];
      await other.engine.applySeed(neutral);
      await other.engine.applySeed(shop); // a restart with the same file still starts
      expect(await other.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow()).toEqual({ value: 'SHOP' });
      await other.engine.earn(sale({ customer: ANN, discountCodes: [{ code: 'SHOP-1' }] }));
      expect((await other.db.selectFrom('reward_instances').select('status').where('code', '=', 'SHOP-1').executeTakeFirstOrThrow()).status).toBe('used');
    } finally {
      await other.close();
    }
  });

  it('persists the seed\'s code prefix for later engine instances', async () => {
    const fresh = await openSeededEngine(name, null);
    try {
      const seed = testSeed();
      seed.codePrefix = 'SHOP';
      seed.merchants[0]!.issuedCodes = [{ code: 'SHOP-1', rewardId: IDS.discount, membershipId: 'MBR-0002' }];
      await fresh.engine.applySeed(seed);
      const restarted = await createEmbeddedEngine({ database: fresh.database });
      await restarted.earn(sale({ customer: { type: 'membershipId', value: 'MBR-0002' }, discountCodes: [{ code: 'shop-1' }] }));
      const row = await fresh.db.selectFrom('reward_instances').select('status').where('code', '=', 'SHOP-1').executeTakeFirstOrThrow();
      expect(row.status).toBe('used');
    } finally {
      await fresh.close();
    }
  });
});
