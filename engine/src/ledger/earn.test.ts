import { saleFingerprint } from '@loyalty-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, balanceOf, ledgerSum, openSeededEngine, sale, testSeed, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('earn on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  it('credits floor(total × earnRate) to a resolved member, once', async () => {
    const command = sale({ totalMinor: 1299 });
    const first = await t.engine.earn(command);
    const fingerprint = saleFingerprint(command.transaction);
    expect(first).toEqual({
      status: 'processed',
      membershipId: 'MBR-0001',
      pointsEarned: 12,
      stampsUpdated: [],
      warning: null,
      fingerprint,
    });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1212);
    const again = await t.engine.earn({ ...command, eventId: 'another-event' });
    expect(again).toEqual({ status: 'duplicate', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null, fingerprint });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1212);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1212);
  });

  it('scopes the duplicate key to vendor and store', async () => {
    const command = sale();
    await t.engine.earn(command);
    const otherStore = await t.engine.earn({ ...command, source: { vendor: 'acme-pos', storeId: 'store-002' } });
    const otherVendor = await t.engine.earn({ ...command, source: { vendor: 'other-pos', storeId: 'store-001' } });
    expect([otherStore.status, otherVendor.status]).toEqual(['processed', 'processed']);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200 + 3 * 12);
  });

  it('records a walk-in sale (so it dedupes) with a walk-in warning and no points', async () => {
    const command = sale({ customer: undefined });
    const result = await t.engine.earn(command);
    expect(result).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
    expect(result.warning).toMatch(/walk-in.*no customer/i);
    expect((await t.engine.earn(command)).status).toBe('duplicate');
  });

  it('warns about an unknown customer, naming the phone but never echoing an email', async () => {
    const byPhone = await t.engine.earn(sale({ customer: { type: 'phone', value: '+1 555 010 9999' } }));
    expect(byPhone).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0 });
    expect(byPhone.warning).toContain('Customer not found');
    expect(byPhone.warning).toContain('+15550109999');
    const byEmail = await t.engine.earn(sale({ customer: { type: 'email', value: 'nobody@example.com' } }));
    expect(byEmail.warning).toMatch(/email address/);
    expect(byEmail.warning).not.toContain('nobody');
    const badPhone = await t.engine.earn(sale({ customer: { type: 'phone', value: 'abc' } }));
    expect(badPhone.warning).toMatch(/not a valid phone number/);
  });

  it("a phone with its country code but no + (Ann's 15550100001) matches nobody, and the warning says how it was read and what to send", async () => {
    const result = await t.engine.earn(sale({ customer: { type: 'phone', value: '1 555 010 0001' } }));
    expect(result).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0 });
    expect(result.warning).toMatch(
      /^Customer not found: phone "1 555 010 0001" has no leading \+, so it was read as a local number \(\+115550100001\)\. If it includes the country code, send it as \+15550100001\./,
    );
  });

  it.each([
    [{ type: 'phone', value: '+15550100001' }],
    [{ type: 'phone', value: '+1 (555) 010-0001' }],
    [{ type: 'phone', value: '5550100001' }],
    [{ type: 'phone', value: '05550100001' }],
    [{ type: 'email', value: '  ANN@Example.COM ' }],
    [{ type: 'membershipId', value: 'MBR-0001' }],
    [{ type: 'externalId', value: 'crm-1' }],
  ] as const)('resolves %j to MBR-0001', async (customer) => {
    expect((await t.engine.earn(sale({ customer }))).membershipId).toBe('MBR-0001');
  });

  it.each([
    [{ type: 'phone', value: '15550100001' }],
    [{ type: 'membershipId', value: 'mbr-0001' }],
    [{ type: 'externalId', value: 'CRM-1' }],
  ] as const)('does not resolve %j (country code without +, case differs on exact ids)', async (customer) => {
    expect((await t.engine.earn(sale({ customer }))).membershipId).toBe('');
  });

  it('warns a resolved member who earns nothing', async () => {
    const result = await t.engine.earn(sale({ totalMinor: 99 }));
    expect(result).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 0 });
    expect(result.warning).toMatch(/\$0\.99 is below one point/);
  });

  it('earns nothing on a sale in another currency, and says why', async () => {
    const result = await t.engine.earn(
      sale({ currency: 'EUR', totalMinor: 5000, items: [{ name: 'Coffee', quantity: 2, unitPriceMinor: 2500 }] }),
    );
    expect(result).toMatchObject({ membershipId: 'MBR-0001', pointsEarned: 0, stampsUpdated: [] });
    expect(result.warning).toMatch(/EUR.*USD/);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
  });

  it('uses exact integer arithmetic for fractional earn rates', async () => {
    await t.close();
    const seed = testSeed();
    seed.merchants[0]!.earnRate = 1.5;
    t = await openSeededEngine(name, seed);
    expect((await t.engine.earn(sale({ totalMinor: 1999 }))).pointsEarned).toBe(29); // 29.985
    expect((await t.engine.earn(sale({ totalMinor: 1000 }))).pointsEarned).toBe(15);
    expect((await t.engine.earn(sale({ totalMinor: 999_999_999_99 }))).pointsEarned).toBe(1_499_999_999);
  });

  it("marks this member's issued code used; other codes and other members' codes are ignored", async () => {
    const codes = [{ code: 'loyal-7qx2' }, { code: 'SUMMER10' }, { code: 'LOYAL-NOPE' }];
    const bob = await t.engine.earn(sale({ customer: { type: 'membershipId', value: 'MBR-0002' }, discountCodes: codes }));
    expect(bob.status).toBe('processed');
    let row = await t.db.selectFrom('reward_instances').selectAll().where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow();
    expect(row.status).toBe('available');
    const command = sale({ customer: ANN, discountCodes: codes });
    await t.engine.earn(command);
    row = await t.db.selectFrom('reward_instances').selectAll().where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'used', used_transaction_id: command.transaction.id });
  });

  it('40,000 prefixed codes on one sale are matched in chunks, within the bound-parameter limit (500)', async () => {
    // What a 1 MiB body can carry; the issued code sits at the end, past the first chunk.
    const codes = [...Array.from({ length: 40_000 }, (_, i) => ({ code: `LOYAL-X${i}` })), { code: 'LOYAL-7QX2' }];
    const command = sale({ customer: ANN, discountCodes: codes });
    expect((await t.engine.earn(command)).status).toBe('processed');
    const row = await t.db.selectFrom('reward_instances').selectAll().where('code', '=', 'LOYAL-7QX2').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'used', used_transaction_id: command.transaction.id });
  });

  it('refuses an unknown merchant with an EngineError (configuration fault)', async () => {
    await expect(t.engine.earn({ ...sale(), merchantId: 'm-nope' })).rejects.toMatchObject({ name: 'EngineError', code: 'internal_error' });
  });
});
