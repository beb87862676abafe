import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { CLOVER_AUTH_CODE, CLOVER_MERCHANT, MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson } from '../../src/testing/native-fixtures.js';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const member = MEMBERS.clover.membershipId;
const paidOrder = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown>;
const batch = (merchants: Record<string, Array<{ objectId: string; type: string; ts: number }>>) =>
  Buffer.from(JSON.stringify({ appId: 'DRKVJT2ZRRRSC', merchants }));

describe.each(dialects)('Clover end to end through /webhooks/clover (%s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(`${XYZ}/orders/GHIVJT2ABCRSC`, { body: paidOrder });
    api.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    api.route(`${XYZ}/orders/ABCVJTABCRRSC`, { body: adapterFixtureJson('clover', 'order-refunded.json') });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ cloverApi: api.baseUrl }), dialect });
  });
  afterAll(async () => {
    await gw.close();
    await api.close();
  });

  const post = (body: Buffer, auth: string | null = CLOVER_AUTH_CODE) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      headers: { 'content-type': 'application/json', ...(auth === null ? {} : { 'x-clover-auth': auth }) },
      payload: body,
    });

  it('the recorded multi-merchant batch, sent twice, earns once; the merchant without a connection is skipped', async () => {
    const body = adapterFixture('clover', 'webhook-notification.json');
    const first = await post(body);
    expect(first.statusCode).toBe(200);
    const answer = first.json();
    expect(
      answer.results.map((r: { eventType: string; transactionId: string; status: string }) => [r.eventType, r.transactionId, r.status]),
    ).toEqual([
      ['sale.completed', 'GHIVJT2ABCRSC', 'processed'],
      // The partially refunded order's sale first (a walk-in: nothing to earn), then its two refunds.
      ['sale.completed', 'ABCVJTABCRRSC', 'processed'],
      ['sale.refunded', 'ABCVJTABCRRSC', 'processed'],
      ['sale.refunded', 'ABCVJTABCRRSC', 'processed'],
    ]);
    expect(answer.results[0]).toMatchObject({ storeId: CLOVER_MERCHANT, transactionId: 'GHIVJT2ABCRSC', membershipId: member });
    expect(answer.skipped).toEqual(Array(5).fill({ storeId: 'MNOVJT2ZRRRSC', reason: 'unknown_connection' }));
    const earned = answer.results[0].pointsEarned as number;
    expect(earned).toBeGreaterThan(0);
    expect(await gw.balance(member)).toBe(earned);

    const again = await post(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(await gw.balance(member)).toBe(earned);
  });

  it('one malformed object in a multi-merchant batch does not refuse the POST: the good order earns, the bad one is skipped', async () => {
    const before = await gw.balance(member);
    api.route(`${XYZ}/orders/MIXVJT2ABCRSC`, { body: { ...paidOrder, id: 'MIXVJT2ABCRSC' } });
    const body = Buffer.from(
      JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: {
          [CLOVER_MERCHANT]: [{ objectId: 'O:MIXVJT2ABCRSC', type: 'UPDATE', ts: 1_700_000_000_001 }],
          MNOVJT2ZRRRSC: [{ objectId: 'O:OPNVJT2ABCRSC', type: 'UPDATE', ts: { when: 'now' } }],
        },
      }),
    );
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.results).toEqual([expect.objectContaining({ transactionId: 'MIXVJT2ABCRSC', status: 'processed' })]);
    expect(answer.skipped).toEqual([{ storeId: 'MNOVJT2ZRRRSC', reason: 'unreadable', detail: expect.stringMatching(/^update 0: ts /) }]);
    expect(await gw.balance(member)).toBe(before + answer.results[0].pointsEarned);
    expect((await post(body)).json().results[0]).toMatchObject({ status: 'duplicate' });
  });

  /** Order `id` as Clover answers it once partially refunded: the paid fixture (Jane's 38.34) with a 10.00 refund. */
  const refundedOrder = (id: string) => ({
    ...paidOrder,
    id,
    paymentState: 'PARTIALLY_REFUNDED',
    refunds: {
      elements: [{ id: `RF-${id}`, amount: 1000, createdTime: 1_537_980_000_000, payment: { id: 'KJ8ZB8RSHYG58' }, voided: false }],
    },
  });
  const notify = (orderId: string, ts: number) => batch({ [CLOVER_MERCHANT]: [{ objectId: `O:${orderId}`, type: 'UPDATE', ts }] });
  type Result = { eventType: string; status: string; pointsEarned: number; pointsReversed?: number };

  it('a refunded order whose sale was never delivered earns, then reverses (not NOTHING_TO_REVERSE with no points)', async () => {
    const before = await gw.balance(member);
    api.route(`${XYZ}/orders/MISVJT2ABCRSC`, { body: refundedOrder('MISVJT2ABCRSC') });
    const response = await post(notify('MISVJT2ABCRSC', 1_537_980_001_000));
    expect(response.statusCode).toBe(200);
    const [sale, refund] = response.json().results as Result[];
    expect(response.json().results).toHaveLength(2);
    // Jane is found through the customer lookup (the order's customer comes without contacts).
    expect(sale).toMatchObject({ eventType: 'sale.completed', status: 'processed', membershipId: member, pointsEarned: 38 });
    // 10.00 of 38.34 refunded: floor(38 × 10 / 38.34) = 9 points back.
    expect(refund).toMatchObject({ eventType: 'sale.refunded', status: 'processed', refundId: 'RF-MISVJT2ABCRSC', pointsReversed: 9 });
    expect(await gw.balance(member)).toBe(before + 38 - 9);
  });

  it('a refunded order whose sale was delivered while PAID: the sale is a duplicate, the refund reverses', async () => {
    const before = await gw.balance(member);
    const path = `${XYZ}/orders/DLVVJT2ABCRSC`;
    api.route(path, { body: { ...paidOrder, id: 'DLVVJT2ABCRSC' } });
    const paid = await post(notify('DLVVJT2ABCRSC', 1_537_970_990_000));
    expect(paid.json().results).toEqual([expect.objectContaining({ eventType: 'sale.completed', status: 'processed', pointsEarned: 38 })]);

    api.route(path, { body: refundedOrder('DLVVJT2ABCRSC') });
    const refunded = await post(notify('DLVVJT2ABCRSC', 1_537_980_001_000));
    expect(refunded.statusCode).toBe(200);
    expect((refunded.json().results as Result[]).map((r) => [r.eventType, r.status, r.pointsEarned, r.pointsReversed])).toEqual([
      ['sale.completed', 'duplicate', 0, undefined],
      ['sale.refunded', 'processed', 0, 9],
    ]);
    expect(await gw.balance(member)).toBe(before + 38 - 9);
  });

  it('a wrong or missing X-Clover-Auth is 401 bad_signature', async () => {
    const body = adapterFixture('clover', 'webhook-notification.json');
    expect((await post(body, 'not-the-auth-code')).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect((await post(body, null)).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
  });

  it('a verified batch naming only merchants without a connection is 200, nothing fetched or earned, noted for the operator', async () => {
    const response = await post(batch({ NOBODYHERE123: [{ objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1 }] }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ results: [], skipped: [{ storeId: 'NOBODYHERE123', reason: 'unknown_connection' }] });
    expect((await gw.notes.listVendorNotes('clover')).find((n) => n.kind === 'unknown_store')).toMatchObject({
      value: 'NOBODYHERE123',
      count: 1,
    });
  });

  it('the unauthenticated verificationCode is a handshake: 200, logged and recorded for the operator', async () => {
    const response = await post(adapterFixture('clover', 'webhook-verification.json'), null);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'handshake', note: expect.stringContaining('verification code') });
    const notes = await gw.notes.listVendorNotes('clover');
    expect(notes[0]).toMatchObject({ kind: 'clover.handshake', value: '5220ecf5-7dea-4396-b0ba-a1659c182887' });
  });

  it("a fetch-back 503 (after the webhook budget's two attempts) is 503 vendor_api_unavailable, nothing earned; the redelivery earns", async () => {
    const before = await gw.balance(member);
    const path = `${XYZ}/orders/NEWVJT2ABCRSC`;
    api.route(path, { body: { ...paidOrder, id: 'NEWVJT2ABCRSC' } });
    api.script(path, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const body = batch({ [CLOVER_MERCHANT]: [{ objectId: 'O:NEWVJT2ABCRSC', type: 'UPDATE', ts: 1_700_000_000_000 }] });
    const failed = await post(body);
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ code: 'vendor_api_unavailable' });
    // Two calls (≤ 3 expansions each), two attempts each; the sibling of the call that failed first may retry after the answer.
    await vi.waitFor(() => expect(api.seen.filter((r) => r.path === path)).toHaveLength(4));
    expect(await gw.balance(member)).toBe(before);

    const redelivered = await post(body);
    expect(redelivered.statusCode).toBe(200);
    const [result] = redelivered.json().results;
    expect(result).toMatchObject({ transactionId: 'NEWVJT2ABCRSC', status: 'processed' });
    expect(await gw.balance(member)).toBe(before + result.pointsEarned);
  });
  it('an order answer the adapter cannot read is 503 vendor_api_unavailable (Clover redelivers), nothing earned — not a 500 mapping error', async () => {
    const before = await gw.balance(member);
    const path = `${XYZ}/orders/BADVJT2ABCRSC`;
    api.route(path, { body: { ...paidOrder, id: 'BADVJT2ABCRSC', total: 'not cents' } });
    const body = batch({ [CLOVER_MERCHANT]: [{ objectId: 'O:BADVJT2ABCRSC', type: 'UPDATE', ts: 1_700_000_000_000 }] });
    const failed = await post(body);
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ code: 'vendor_api_unavailable' });
    expect(await gw.balance(member)).toBe(before);
  });
});
