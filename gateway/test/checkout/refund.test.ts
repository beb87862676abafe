import { randomUUID } from 'node:crypto';
import { RefundResult, type IdempotencyCache } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotencyCache } from '../../src/stores/index.js';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund as refundEvent, sale } from '../../src/testing/test-seed.js';
import {
  MEMBERS,
  PATHS,
  byMembership,
  expectError,
  expectOk,
  fieldPaths,
  freshId,
  openCheckoutGateway,
} from '../../src/testing/checkout-kit.js';

const MEMBER = MEMBERS.refund.id;

describe.each(testDialects())('POST /v1/refund ($name)', ({ name }) => {
  let gw: GatewayFixture;
  let redisCache: IdempotencyCache | undefined;
  beforeAll(async () => {
    // PostgreSQL runs with the shared Redis cache when REDIS_URL is set: the multi-process configuration.
    if (name === 'postgres' && process.env.REDIS_URL) {
      redisCache = createIdempotencyCache({ redisUrl: process.env.REDIS_URL, keyPrefix: `lg-test:${randomUUID()}:` });
    }
    gw = await openCheckoutGateway(name, redisCache ? { idempotency: redisCache } : {});
  });
  afterAll(async () => {
    await gw.close();
    await redisCache?.close();
  });

  /** A sale of `total` for the refund member through the webhook (earnRate 1: `total` points). */
  async function paidSale(total: number): Promise<string> {
    const id = freshId('S');
    const response = await gw.send(sale({ id, total, customer: byMembership(MEMBER) }));
    expect(response.json()).toMatchObject({ status: 'processed', pointsEarned: Math.floor(total) });
    return id;
  }
  const redeemAgainst = async (order: string, points: number) =>
    expectOk(await gw.post(PATHS.redeem, { customer: byMembership(MEMBER), externalTransactionId: order, pointsToRedeem: points }));
  const refund = async (externalTransactionId: string, refundTransactionId: string, refundAmount?: number) =>
    RefundResult.parse(
      expectOk(
        await gw.post(PATHS.refund, {
          externalTransactionId,
          refundTransactionId,
          ...(refundAmount === undefined ? {} : { refundAmount }),
        }),
      ),
    );

  it('full refund of a sale with a points redemption: REVERSED, earn reversed and points re-credited; exactly the spec shape', async () => {
    const order = await paidSale(100);
    await redeemAgainst(order, 300);
    const before = await gw.balance(MEMBER);
    const response = await gw.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: freshId('RF') });
    expect(expectOk(response)).toEqual({ status: 'REVERSED', pointsReversed: 100, pointsReCredited: 300 });
    expect(await gw.balance(MEMBER)).toBe(before - 100 + 300);
  });

  it('partial refunds: proportional and cumulative, re-credit on the refund completing the reversal, never more than earned', async () => {
    const order = await paidSale(100);
    await redeemAgainst(order, 200);
    const start = await gw.balance(MEMBER);
    expect(await refund(order, freshId('RF'), 40)).toEqual({ status: 'REVERSED', pointsReversed: 40, pointsReCredited: 0 });
    expect(await refund(order, freshId('RF'), 35.5)).toEqual({ status: 'REVERSED', pointsReversed: 35, pointsReCredited: 0 });
    expect(await refund(order, freshId('RF'), 50)).toEqual({ status: 'REVERSED', pointsReversed: 25, pointsReCredited: 200 });
    expect(await refund(order, freshId('RF'), 10)).toEqual({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0, pointsReCredited: 0 });
    expect(await gw.balance(MEMBER)).toBe(start - 100 + 200);
  });

  it('a repeat answers the stored figures (not 0/0); a refundTransactionId reused for another sale is 400 refund_id_reused, not ALREADY_PROCESSED', async () => {
    const order = await paidSale(60);
    const refundId = freshId('RF');
    expect(await refund(order, refundId, 30)).toEqual({ status: 'REVERSED', pointsReversed: 30, pointsReCredited: 0 });
    const after = await gw.balance(MEMBER);
    expect(await refund(order, refundId, 30)).toEqual({ status: 'ALREADY_PROCESSED', pointsReversed: 30, pointsReCredited: 0 });
    const fresh = await openCheckoutGateway(name, { database: gw.database, masterKey: gw.masterKey }); // empty cache, same ledger
    try {
      const response = await fresh.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: refundId, refundAmount: 30 });
      expect(expectOk(response)).toEqual({ status: 'ALREADY_PROCESSED', pointsReversed: 30, pointsReCredited: 0 });
    } finally {
      await fresh.close();
    }
    const other = await paidSale(40);
    const reused = expectError(
      await gw.post(PATHS.refund, { externalTransactionId: other, refundTransactionId: refundId }),
      400,
      'refund_id_reused',
    );
    expect(reused.message).toBe(
      `Refund id ${refundId} was already used for a refund of order ${order}; nothing was reversed now. Give every refund its own id.`,
    );
    expectError(
      await gw.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: refundId, refundAmount: 10 }),
      400,
      'refund_id_reused',
    );
    expect(await gw.balance(MEMBER)).toBe(after + 40);
  });

  it('a sale that never reached the service: NOTHING_TO_REVERSE (a success)', async () => {
    expect(await refund(freshId('UNKNOWN'), freshId('RF'))).toEqual({
      status: 'NOTHING_TO_REVERSE',
      pointsReversed: 0,
      pointsReCredited: 0,
    });
  });

  it('one idempotency space with sale.refunded: /v1/refund first, then the webhook with the same refund id, reverses once', async () => {
    const order = await paidSale(80);
    const refundId = freshId('RF');
    const before = await gw.balance(MEMBER);
    expect(await refund(order, refundId)).toEqual({ status: 'REVERSED', pointsReversed: 80, pointsReCredited: 0 });
    const webhook = await gw.send(refundEvent(order, refundId));
    expect(webhook.json()).toMatchObject({ status: 'duplicate', pointsEarned: 0, pointsReversed: 0, pointsReCredited: 0 });
    expect(await gw.balance(MEMBER)).toBe(before - 80);
  });

  it('one idempotency space: the webhook first, then /v1/refund with the same id, reverses once (same figures reported)', async () => {
    const order = await paidSale(50);
    await redeemAgainst(order, 100);
    const refundId = freshId('RF');
    const before = await gw.balance(MEMBER);
    const webhook = await gw.send(refundEvent(order, refundId));
    expect(webhook.json()).toMatchObject({ status: 'processed', membershipId: MEMBER, pointsReversed: 50, pointsReCredited: 100 });
    expect(await refund(order, refundId)).toEqual({ status: 'ALREADY_PROCESSED', pointsReversed: 50, pointsReCredited: 100 });
    // and when the gateway cache has forgotten, the ledger still says ALREADY_PROCESSED
    const fresh = await openCheckoutGateway(name, { database: gw.database, masterKey: gw.masterKey });
    try {
      const response = await fresh.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: refundId });
      expect(expectOk(response)).toEqual({ status: 'ALREADY_PROCESSED', pointsReversed: 50, pointsReCredited: 100 });
    } finally {
      await fresh.close();
    }
    expect(await gw.balance(MEMBER)).toBe(before - 50 + 100);
  });

  it('bad input: 400 missing_field / 422 validation_failed naming each path', async () => {
    expect(fieldPaths(expectError(await gw.post(PATHS.refund, { externalTransactionId: 'T-1' }), 400, 'missing_field'))).toEqual([
      'refundTransactionId',
    ]);
    const bad = expectError(
      await gw.post(PATHS.refund, { externalTransactionId: '', refundTransactionId: 'r'.repeat(256), refundAmount: 1.001, reason: 'x' }),
      422,
      'validation_failed',
    );
    expect(fieldPaths(bad).sort()).toEqual(['externalTransactionId', 'reason', 'refundAmount', 'refundTransactionId']);
    expect(
      fieldPaths(
        expectError(
          await gw.post(PATHS.refund, { externalTransactionId: 'T', refundTransactionId: 'R', refundAmount: 0 }),
          422,
          'validation_failed',
        ),
      ),
    ).toEqual(['refundAmount']);
  });
});
