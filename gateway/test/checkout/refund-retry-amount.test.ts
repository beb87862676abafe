import { RefundResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund as refundEvent, sale } from '../../src/testing/test-seed.js';
import { MEMBERS, PATHS, byMembership, expectError, expectOk, freshId, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

const MEMBER = MEMBERS.refund.id;

/** An omitted refund amount is the sale's total: a full refund is the same refund whether or not its retry spells the amount out. */
describe.each(testDialects())(
  'a full refund retried with its amount spelled out is the same refund, not 400 refund_id_reused ($name)',
  ({ name }) => {
    let gw: GatewayFixture;
    beforeAll(async () => {
      gw = await openCheckoutGateway(name);
    });
    afterAll(() => gw.close());

    async function paidSale(total: number): Promise<string> {
      const id = freshId('S');
      expect((await gw.send(sale({ id, total, customer: byMembership(MEMBER) }))).json()).toMatchObject({
        status: 'processed',
        pointsEarned: total,
      });
      return id;
    }
    const refund = (gateway: GatewayFixture, externalTransactionId: string, refundTransactionId: string, refundAmount?: number) =>
      gateway.post(PATHS.refund, { externalTransactionId, refundTransactionId, ...(refundAmount === undefined ? {} : { refundAmount }) });
    const refunded = async (externalTransactionId: string, refundTransactionId: string, refundAmount?: number) =>
      RefundResult.parse(expectOk(await refund(gw, externalTransactionId, refundTransactionId, refundAmount)));

    it('/v1/refund: omitted then 60, and 60 then omitted, are ALREADY_PROCESSED with the original figures; another amount is still refused', async () => {
      const start = await gw.balance(MEMBER);
      const [first, second] = [await paidSale(60), await paidSale(60)];
      const [r1, r2] = [freshId('RF'), freshId('RF')];
      const full = { status: 'REVERSED', pointsReversed: 60, pointsReCredited: 0 };
      expect(await refunded(first, r1)).toEqual(full);
      expect(await refunded(first, r1, 60)).toEqual({ ...full, status: 'ALREADY_PROCESSED' });
      expect(await refunded(second, r2, 60)).toEqual(full);
      expect(await refunded(second, r2)).toEqual({ ...full, status: 'ALREADY_PROCESSED' });
      const other = expectError(await refund(gw, first, r1, 59.99), 400, 'refund_id_reused');
      expect(other.message).toBe(
        `Refund id ${r1} was already used for a refund of this order with another amount; nothing was reversed now. Give every refund its own id.`,
      );
      expectError(await refund(gw, second, r2, 30), 400, 'refund_id_reused');
      expect(await gw.balance(MEMBER)).toBe(start);
    });

    it('the sale.refunded webhook and /v1/refund: the same full refund whichever door spells out the amount', async () => {
      const start = await gw.balance(MEMBER);
      const [viaWebhook, viaEndpoint] = [await paidSale(60), await paidSale(60)];
      const [r1, r2] = [freshId('RF'), freshId('RF')];
      expect((await gw.send(refundEvent(viaWebhook, r1))).json()).toMatchObject({ status: 'processed', pointsReversed: 60 });
      expect(await refunded(viaWebhook, r1, 60)).toEqual({ status: 'ALREADY_PROCESSED', pointsReversed: 60, pointsReCredited: 0 });
      expect(await refunded(viaEndpoint, r2, 60)).toMatchObject({ status: 'REVERSED', pointsReversed: 60 });
      // A gateway that has forgotten (empty cache, same ledger) asks the engine, which matches the full refund spelled either way.
      const fresh = await openCheckoutGateway(name, { database: gw.database, masterKey: gw.masterKey });
      try {
        expect((await fresh.send(refundEvent(viaEndpoint, r2))).json()).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
        expect((await fresh.send(refundEvent(viaWebhook, r1, 60))).json()).toMatchObject({ status: 'duplicate' });
        const reused = await fresh.send({ ...refundEvent(viaEndpoint, r2, 30), eventId: freshId('E') });
        expect(reused.statusCode, reused.body).toBe(400);
        expect(reused.json()).toMatchObject({ code: 'refund_id_reused' });
      } finally {
        await fresh.close();
      }
      expect(await gw.balance(MEMBER)).toBe(start);
    });
  },
);
