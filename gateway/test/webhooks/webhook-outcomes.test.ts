import { WebhookResult } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { STAMP_REWARD, refund, sale } from '../../src/testing/test-seed.js';

let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openGateway();
});
afterAll(() => gw.close());

async function ok(body: unknown): Promise<WebhookResult> {
  const response = await gw.send(body);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return WebhookResult.parse(response.json());
}

describe('sale.completed', () => {
  it('member: processed, points on the total, stamps listed, warning null', async () => {
    const before = await gw.balance('MBR-0001');
    const result = await ok(sale({ total: 12.5 }));
    expect(result).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 12, warning: null });
    expect(result.stampsUpdated).toEqual([
      expect.objectContaining({ rewardId: STAMP_REWARD, rewardTitle: 'Buy 5 coffees, get one free', required: 5, completed: false }),
    ]);
    expect(await gw.balance('MBR-0001')).toBe(before + 12);
  });

  it('the same transaction again: duplicate, nothing earned twice', async () => {
    const s = sale({ total: 20 });
    const before = await gw.balance('MBR-0001');
    expect((await ok(s)).status).toBe('processed');
    const again = await ok(s);
    expect(again).toEqual({ status: 'duplicate', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null });
    // a different eventId for the same transaction is still the same sale
    expect((await ok({ ...s, eventId: 'another-event' })).status).toBe('duplicate');
    expect(await gw.balance('MBR-0001')).toBe(before + 20);
  });

  it('the ledger decides when the cache has forgotten: duplicate after a cache loss', async () => {
    const s = sale({ total: 5 });
    expect((await ok(s)).status).toBe('processed');
    const fresh = await openGateway({ database: gw.database, masterKey: gw.masterKey }); // new process, empty cache, same ledger
    try {
      const response = await fresh.send(s);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().status).toBe('duplicate');
    } finally {
      await fresh.close();
    }
  });

  it('customer not a member: processed, empty membershipId, 0 points, a warning', async () => {
    const result = await ok(sale({ customer: { type: 'phone', value: '+15559999999' } }));
    expect(result).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
    expect(result.warning).toEqual(expect.any(String));
  });

  it('walk-in (no customer) is accepted', async () => {
    const result = await ok(sale({ customer: null }));
    expect(result).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
  });

  it('customer resolved by phone, email and externalId', async () => {
    expect((await ok(sale({ customer: { type: 'phone', value: '+15550100001' } }))).membershipId).toBe('MBR-0001');
    expect((await ok(sale({ customer: { type: 'email', value: 'ANN@example.com' } }))).membershipId).toBe('MBR-0001');
    expect((await ok(sale({ customer: { type: 'externalId', value: 'crm-1' } }))).membershipId).toBe('MBR-0001');
  });
});

describe('ignored events', () => {
  it('sale.voided: 200 ignored (validated first: a usable connection test)', async () => {
    const before = await gw.balance('MBR-0001');
    const voided = { ...sale(), eventType: 'sale.voided' };
    const result = await ok(voided);
    expect(result).toMatchObject({ status: 'ignored', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
    expect(await gw.balance('MBR-0001')).toBe(before);
    const invalid = await gw.send({ ...voided, transaction: { ...voided.transaction, total: 0 } });
    expect(invalid.statusCode).toBe(422);
  });

  it('unknown eventType: 200 ignored with a warning, without validating the rest', async () => {
    const result = await ok({ eventType: 'sale.parked', whatever: [1, 2, 3] });
    expect(result).toEqual({
      status: 'ignored',
      membershipId: '',
      pointsEarned: 0,
      stampsUpdated: [],
      warning: 'Unknown eventType "sale.parked": ignored.',
    });
  });
});

describe('sale.refunded', () => {
  it('full refund reverses every earned point; a repeat is a duplicate', async () => {
    const s = sale({ total: 40 });
    await ok(s);
    const before = await gw.balance('MBR-0001');
    const result = await ok(refund(s.transaction.id, `${s.transaction.id}-R1`));
    expect(result).toMatchObject({
      status: 'processed',
      membershipId: 'MBR-0001',
      pointsEarned: 0,
      pointsReversed: 40,
      pointsReCredited: 0,
      warning: null,
    });
    expect(await gw.balance('MBR-0001')).toBe(before - 40);
    const again = await ok(refund(s.transaction.id, `${s.transaction.id}-R1`));
    expect(again).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
    expect(await gw.balance('MBR-0001')).toBe(before - 40);
  });

  it('partial refunds reverse in proportion, cumulatively, never more than earned', async () => {
    const s = sale({ total: 10 });
    await ok(s);
    const before = await gw.balance('MBR-0001');
    const id = s.transaction.id;
    expect((await ok(refund(id, `${id}-P1`, 3.33))).pointsReversed).toBe(3);
    expect((await ok(refund(id, `${id}-P2`, 3.33))).pointsReversed).toBe(3);
    expect((await ok(refund(id, `${id}-P3`, 3.34))).pointsReversed).toBe(4);
    const extra = await ok(refund(id, `${id}-P4`, 5));
    expect(extra.pointsReversed).toBe(0);
    expect(await gw.balance('MBR-0001')).toBe(before - 10);
  });

  it('refund of a sale that never arrived: processed with a nothing-to-reverse warning', async () => {
    const result = await ok(refund('NEVER-SEEN', 'NEVER-SEEN-R'));
    expect(result).toMatchObject({ status: 'processed', pointsReversed: 0, pointsReCredited: 0 });
    expect(result.warning).toMatch(/Nothing to reverse/);
  });
});

describe('eventId collapses the vendor retries', () => {
  it('a retried sale with the same eventId but a new transaction id is a duplicate, nothing earned', async () => {
    const first = sale({ total: 15 });
    const before = await gw.balance('MBR-0001');
    expect((await ok(first)).pointsEarned).toBe(15);
    const retried = sale({ total: 15 });
    expect(retried.transaction.id).not.toBe(first.transaction.id);
    const again = await ok({ ...retried, eventId: first.eventId });
    expect(again).toEqual({ status: 'duplicate', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null });
    expect(await gw.balance('MBR-0001')).toBe(before + 15);
  });

  it('a retried refund with the same eventId but a new refund id is a duplicate', async () => {
    const s = sale({ total: 30 });
    await ok(s);
    const before = await gw.balance('MBR-0001');
    const first = refund(s.transaction.id, 'RF-A', 10);
    expect((await ok(first)).pointsReversed).toBe(10);
    const retried = { ...first, refund: { id: 'RF-A-retry-2', amount: 10 } };
    expect((await ok(retried)).status).toBe('duplicate');
    expect(await gw.balance('MBR-0001')).toBe(before - 10);
  });

  it('one eventId reused for a sale and its refund does not swallow the refund', async () => {
    const s = sale({ total: 8 });
    const shared = `EV-${s.transaction.id}`;
    await ok({ ...s, eventId: shared });
    expect((await ok({ ...refund(s.transaction.id, `${s.transaction.id}-R`), eventId: shared })).pointsReversed).toBe(8);
  });
});
