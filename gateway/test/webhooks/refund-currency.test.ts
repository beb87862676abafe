import { ErrorBody } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund, sale } from '../../src/testing/test-seed.js';

/**
 * The generic tier's refund currency rule (docs/decisions.md, "Refund currency"): a sale.refunded
 * whose amount is in another currency than its sale is 400 currency_mismatch, nothing reversed and
 * nothing recorded, so the vendor resends it in the sale's currency under the same refund id.
 */
describe.each(testDialects())('a refund in another currency than its sale ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openGateway({ dialect: name });
  });
  afterAll(() => gw.close());

  it('a partial refund in EUR of a USD sale: 400 currency_mismatch in the Error body, nothing reversed; resent in USD it reverses', async () => {
    const before = await gw.balance('MBR-0001');
    const first = sale({ total: 40 });
    expect((await gw.send(first)).json()).toMatchObject({ status: 'processed', pointsEarned: 40 });
    const inEuros = refund(first.transaction.id, 'RF-EUR-1', 20);
    inEuros.transaction.currency = 'EUR';
    const refused = await gw.send(inEuros);
    expect(refused.statusCode, refused.body).toBe(400);
    const error = ErrorBody.parse(refused.json());
    expect(error).toMatchObject({ statusCode: 400, code: 'currency_mismatch' });
    expect(error.message).toContain('This refund is in EUR but the sale it refunds was in USD');
    expect(await gw.balance('MBR-0001')).toBe(before + 40);
    // The same refund id, now in the sale's currency: reversed (nothing was recorded under it).
    expect((await gw.send(refund(first.transaction.id, 'RF-EUR-1', 20))).json()).toMatchObject({ status: 'processed' });
    expect(await gw.balance('MBR-0001')).toBe(before + 20);
  });

  it('a full refund (no amount) names a currency but compares nothing: processed', async () => {
    const before = await gw.balance('MBR-0001');
    const first = sale({ total: 15 });
    await gw.send(first);
    const full = refund(first.transaction.id, 'RF-EUR-FULL');
    full.transaction.currency = 'EUR';
    expect((await gw.send(full)).json()).toMatchObject({ status: 'processed' });
    expect(await gw.balance('MBR-0001')).toBe(before);
  });

  it('POST /v1/refund carries no currency: its amount is in the sale currency', async () => {
    const before = await gw.balance('MBR-0001');
    const first = sale({ total: 10 });
    await gw.send(first);
    const answer = await gw.post('/v1/refund', {
      externalTransactionId: first.transaction.id,
      refundTransactionId: 'RF-V1-1',
      refundAmount: 5,
    });
    expect(answer.json()).toMatchObject({ status: 'REVERSED', pointsReversed: 5 });
    expect(await gw.balance('MBR-0001')).toBe(before + 5);
  });
});
