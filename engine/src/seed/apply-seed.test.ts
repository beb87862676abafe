import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { createEmbeddedEngine } from '../ledger/create-embedded-engine.js';
import { ANN, IDS, balanceOf, ledgerSum, openSeededEngine, sale, testSeed, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('applySeed on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  const count = async (table: 'members' | 'rewards' | 'reward_instances' | 'ledger_entries' | 'outlets' | 'merchants') =>
    (await t.db.selectFrom(table).select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;

  it('is idempotent: a second apply (and a restart) changes nothing and never re-credits points', async () => {
    await t.engine.earn(sale({ totalMinor: 1000 }));
    await t.engine.redeem({
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      source: { vendor: 'v', storeId: 's' },
      customer: ANN,
      externalTransactionId: 'o',
      rewardId: IDS.discount,
      orderValueMinor: 9000,
    });
    const before = await Promise.all(
      (['members', 'rewards', 'reward_instances', 'ledger_entries', 'outlets', 'merchants'] as const).map(count),
    );
    await t.engine.applySeed(testSeed());
    const restarted = await createEmbeddedEngine({ database: t.database });
    await restarted.applySeed(testSeed());
    expect(
      await Promise.all((['members', 'rewards', 'reward_instances', 'ledger_entries', 'outlets', 'merchants'] as const).map(count)),
    ).toEqual(before);
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

  it("rejects an issued code without the engine's prefix", async () => {
    const seed = testSeed();
    seed.merchants[0]!.issuedCodes[0]!.code = 'PROMO-1';
    await expect(t.engine.applySeed(seed)).rejects.toMatchObject({
      fields: [{ path: 'merchants[0].issuedCodes[0].code', message: 'must start with "LOYAL-"' }],
    });
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
  const merchantCount = async () =>
    Number((await t.db.selectFrom('merchants').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const storedPrefix = async () =>
    (await t.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirst())?.value;

  it('a later seed that would change the established code prefix (killing issued codes) is refused and writes nothing', async () => {
    const seed = testSeed();
    seed.codePrefix = 'SHOP';
    seed.merchants = [newMerchant(seed, 'm-shop', 'SHOP-1')];
    const before = await merchantCount();
    const error = await t.engine.applySeed(seed).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'validation_failed',
      fields: [{ path: 'codePrefix', message: expect.stringMatching(/"SHOP".*"LOYAL"/) }],
    });
    expect(await merchantCount()).toBe(before);
    expect(await storedPrefix()).toBe('LOYAL');
    // LOYAL- codes still match, on this engine and a restarted one
    const restarted = await createEmbeddedEngine({ database: t.database });
    await restarted.earn(sale({ customer: ANN, discountCodes: [{ code: 'loyal-7qx2' }] }));
    expect(
      (await t.db.selectFrom('reward_instances').select('status').where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow()).status,
    ).toBe('used');
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
      await expect(other.engine.applySeed(implicit)).rejects.toMatchObject({
        fields: [{ path: 'codePrefix', message: expect.stringContaining('"SHOP"') }],
      });
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
      expect(
        await other.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow(),
      ).toEqual({ value: 'SHOP' });
      await other.engine.earn(sale({ customer: ANN, discountCodes: [{ code: 'SHOP-1' }] }));
      expect(
        (await other.db.selectFrom('reward_instances').select('status').where('code', '=', 'SHOP-1').executeTakeFirstOrThrow()).status,
      ).toBe('used');
    } finally {
      await other.close();
    }
  });

  /** Store `value` as the engine's reward-code prefix, as an earlier release could leave it. */
  const storePrefix = async (db: TestEngine['db'], value: string) => {
    await db
      .insertInto('engine_settings')
      .values({ key: 'code_prefix', value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  };
  const codeStatus = async (db: TestEngine['db'], code: string) =>
    (await db.selectFrom('reward_instances').select('status').where('code', '=', code).executeTakeFirstOrThrow()).status;

  it.each([
    ['with LOYAL- codes issued', true],
    ['with no codes at all', false],
  ])(
    'a data dir of the previous release (code_prefix DEMO stored by the old demo, %s) takes a seed of LOYAL- codes, as no DEMO- code exists; LOYAL- codes match',
    async (_, withCodes) => {
      const old = await openSeededEngine(name, withCodes ? testSeed() : null);
      try {
        await storePrefix(old.db, 'DEMO'); // what the old demo wrote on each start
        const booted = await createEmbeddedEngine({ database: old.database });
        await booted.applySeed(testSeed());
        expect(
          await old.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow(),
        ).toEqual({ value: 'LOYAL' });
        // the demo (no prefix, no codes) keeps it, and a restart with the same file changes nothing
        const demo = testSeed();
        delete demo.codePrefix;
        demo.merchants = [{ ...newMerchant(demo, 'm-demo', 'X-1'), issuedCodes: [] }];
        await booted.applySeed(demo);
        const counts = async () =>
          Promise.all(
            (['reward_instances', 'members', 'ledger_entries'] as const).map(async (table) =>
              Number((await old.db.selectFrom(table).select(old.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
            ),
          );
        const before = await counts();
        const restarted = await createEmbeddedEngine({ database: old.database });
        await restarted.applySeed(testSeed());
        expect(await counts()).toEqual(before);
        // codes match on the engine that applied it and on a restarted one
        await booted.earn(sale({ customer: ANN, discountCodes: [{ code: 'loyal-7qx2' }] }));
        await restarted.earn(sale({ customer: ANN, discountCodes: [{ code: 'LOYAL-MUF1' }] }));
        expect([await codeStatus(old.db, 'LOYAL-7QX2'), await codeStatus(old.db, 'LOYAL-MUF1')]).toEqual(['used', 'used']);
      } finally {
        await old.close();
      }
    },
  );

  it('a first seed that only names a prefix (no codes issued) does not lock it: a later seed with another prefix and its codes applies', async () => {
    const fresh = await openSeededEngine(name, null);
    try {
      const named = testSeed();
      named.codePrefix = 'SHOP';
      named.merchants[0]!.issuedCodes = [];
      await fresh.engine.applySeed(named);
      expect(
        await fresh.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow(),
      ).toEqual({ value: 'SHOP' });
      await fresh.engine.applySeed(testSeed()); // LOYAL, with LOYAL- codes
      expect(
        await fresh.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow(),
      ).toEqual({ value: 'LOYAL' });
      await fresh.engine.earn(sale({ customer: ANN, discountCodes: [{ code: 'LOYAL-7QX2' }] }));
      expect(await codeStatus(fresh.db, 'LOYAL-7QX2')).toBe('used');
      // now LOYAL- codes exist: SHOP is refused from here on
      await expect(fresh.engine.applySeed(named)).rejects.toMatchObject({
        fields: [{ path: 'codePrefix', message: expect.stringContaining('"LOYAL"') }],
      });
    } finally {
      await fresh.close();
    }
  });

  it('a stored prefix that issued codes carry (compared case-insensitively, as on sales) is still refused, naming those codes, before anything is written', async () => {
    const other = await openSeededEngine(name, null);
    try {
      const shop = testSeed();
      shop.codePrefix = 'SHOP';
      shop.merchants[0]!.issuedCodes = [{ code: 'shop-1', rewardId: IDS.discount, membershipId: 'MBR-0001' }];
      await other.engine.applySeed(shop);
      await storePrefix(other.db, 'Shop'); // another spelling of the same prefix
      const booted = await createEmbeddedEngine({ database: other.database });
      const loyal = testSeed();
      loyal.merchants[0]!.id = 'm-loyal';
      const error = await booted.applySeed(loyal).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        code: 'validation_failed',
        fields: [
          {
            path: 'codePrefix',
            message:
              'codePrefix "LOYAL" conflicts with the reward-code prefix "Shop" this loyalty engine already uses: ' +
              '1 issued code carries it (e.g. "SHOP-1") and would stop matching. ' +
              'Set "codePrefix": "Shop" and issue "Shop-" codes, or start on an empty database.',
          },
        ],
      });
      expect(await other.db.selectFrom('merchants').select('id').where('id', '=', 'm-loyal').executeTakeFirst()).toBeUndefined();
      expect(
        await other.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow(),
      ).toEqual({ value: 'Shop' });
      await booted.earn(sale({ customer: ANN, discountCodes: [{ code: 'SHOP-1' }] }));
      expect(await codeStatus(other.db, 'SHOP-1')).toBe('used');
    } finally {
      await other.close();
    }
  });

  it('two seeds for different prefixes applied at the same moment on a replaceable prefix: one applies, the other is refused, every issued code matches', async () => {
    const fresh = await openSeededEngine(name, null);
    try {
      await storePrefix(fresh.db, 'DEMO');
      const shop = testSeed();
      shop.codePrefix = 'SHOP';
      shop.merchants = [newMerchant(shop, 'm-shop', 'SHOP-1')];
      const engines = await Promise.all([0, 1].map(() => createEmbeddedEngine({ database: fresh.database })));
      const results = await Promise.allSettled([engines[0]!.applySeed(testSeed()), engines[1]!.applySeed(shop)]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const prefix = (
        await fresh.db.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirstOrThrow()
      ).value;
      expect(prefix).toBe(results[0]!.status === 'fulfilled' ? 'LOYAL' : 'SHOP');
      const codes = (await fresh.db.selectFrom('reward_instances').select('code').where('origin', '=', 'issued_code').execute()).map(
        (r) => r.code,
      );
      expect(codes.length).toBeGreaterThan(0);
      expect(codes.filter((code) => !code!.startsWith(`${prefix}-`))).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('an engine whose codePrefix option pins another prefix refuses the seed, without claiming codes that do not exist', async () => {
    const fresh = await openSeededEngine(name, null);
    try {
      const pinned = await createEmbeddedEngine({ database: fresh.database, codePrefix: 'ACME' });
      await expect(pinned.applySeed(testSeed())).rejects.toMatchObject({
        fields: [
          {
            path: 'codePrefix',
            message:
              'codePrefix "LOYAL" conflicts with the reward-code prefix "ACME" this loyalty engine is configured with (its codePrefix option): ' +
              '"LOYAL-" codes would never match on sales. Set "codePrefix": "ACME" and issue "ACME-" codes.',
          },
        ],
      });
      expect(await fresh.db.selectFrom('merchants').select('id').execute()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it("persists the seed's code prefix for later engine instances", async () => {
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
