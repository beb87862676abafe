import { RefundResult, WebhookResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund as refundEvent, sale } from '../../src/testing/test-seed.js';
import { MEMBERS, PATHS, byMembership, expectOk, freshId, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

const MEMBER = MEMBERS.refund.id;

/**
 * Events arrive late: a vendor retries a sale for up to an hour after a 500 while its refund got
 * through. The late sale honours the refunds already recorded, so a refunded sale never earns.
 */
describe.each(testDialects())('a sale arriving after its own refund keeps none of its points ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openCheckoutGateway(name);
  });
  afterAll(() => gw.close());

  const saleOf = async (id: string, total: number) =>
    WebhookResult.passthrough().parse(expectOk(await gw.send(sale({ id, total, customer: byMembership(MEMBER) }))));

  it('/v1/refund first (NOTHING_TO_REVERSE), then the sale: 200 processed, 0 points left, a warning saying why; retries change nothing', async () => {
    const start = await gw.balance(MEMBER);
    const order = freshId('S');
    const refundId = freshId('RF');
    const early = await gw.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: refundId });
    expect(expectOk(early)).toEqual({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0, pointsReCredited: 0 });
    const late = await saleOf(order, 60);
    expect(late).toMatchObject({ status: 'processed', membershipId: MEMBER, pointsEarned: 0 });
    expect(late.warning).toBe(
      `This order was refunded before the sale arrived (refund ${refundId}): the 60 points it earned were reversed at once.`,
    );
    expect(await gw.balance(MEMBER)).toBe(start);
    expect((await gw.send(refundEvent(order, refundId))).json()).toMatchObject({ status: 'duplicate' });
    expect(
      RefundResult.parse(expectOk(await gw.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: refundId }))).status,
    ).toBe('ALREADY_PROCESSED');
    expect((await gw.send(sale({ id: order, total: 60, customer: byMembership(MEMBER) }))).json()).toMatchObject({ status: 'duplicate' });
    expect(await gw.balance(MEMBER)).toBe(start);
  });

  it('a partial sale.refunded first: the late sale keeps only its unrefunded share', async () => {
    const start = await gw.balance(MEMBER);
    const order = freshId('S');
    const refundId = freshId('RF');
    expect((await gw.send(refundEvent(order, refundId, 20))).json()).toMatchObject({ status: 'processed', pointsReversed: 0 });
    const late = await saleOf(order, 60);
    expect(late).toMatchObject({ status: 'processed', pointsEarned: 40 });
    expect(late.warning).toBe(
      `Part of this order was refunded before the sale arrived (refund ${refundId}): 20 of the 60 points it earned were reversed at once.`,
    );
    expect(await gw.balance(MEMBER)).toBe(start + 40);
  });
});
