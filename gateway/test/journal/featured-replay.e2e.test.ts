import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { MEMBERS, SHOP_DOMAIN, SHOPIFY_APP_SECRET, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';
import { REPLAY_HEADER } from '../../src/journal/replay-tickets.js';

// Shopify's documented orders/paid payload (orders-paid.json, unedited), signed as Shopify signs it.
const paid = adapterFixture('shopify', 'orders-paid.json');
const shopifyHeaders = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-shopify-topic': 'orders/paid',
  'x-shopify-shop-domain': SHOP_DOMAIN,
  ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, '', paid),
  ...extra,
});

describe.each(testDialects())('replaying a featured delivery through its own door ($name)', ({ name }) => {
  let t: OperatorApp;
  const fault = { down: false };
  beforeEach(async () => {
    fault.down = false;
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault, seedDocument: featuredSeedDocument() });
  });
  afterEach(async () => {
    await t.close();
  });

  const balance = async () =>
    (
      await t.engine.eligibility({
        merchantId: 'm-bean',
        outletId: 'o-till',
        source: { vendor: 'featured-test', storeId: 'balance-check' },
        customer: { type: 'membershipId', value: MEMBERS.shopify.membershipId },
      })
    ).walletBalance;
  const journalEntries = async (query: string) => {
    await t.journal!.flush();
    return (await t.admin('GET', `/admin/deliveries${query}`)).json().deliveries as Array<Record<string, any>>;
  };

  it('a Shopify order the engine failed (500) is replayed once the engine is back: authenticated again, earned once, audited', async () => {
    fault.down = true;
    const failed = await t.app.inject({ method: 'POST', url: '/webhooks/shopify', headers: shopifyHeaders(), payload: paid });
    expect(failed.statusCode).toBe(500);
    const [entry] = await journalEntries('?status=500');
    expect(entry).toMatchObject({
      route: '/webhooks/shopify',
      vendor: 'shopify',
      storeId: SHOP_DOMAIN,
      requestKept: true,
      outcome: 'engine_unavailable_retry',
    });

    // Still down: the replay fails like the door would, and is journalled (kept, so it can be replayed in turn).
    const stillDown = await t.admin('POST', `/admin/deliveries/${entry!.id}/replay`);
    expect(stillDown.json()).toMatchObject({ statusCode: 500, code: 'engine_unavailable_retry' });

    fault.down = false;
    const before = await balance();
    const replayed = await t.admin('POST', `/admin/deliveries/${entry!.id}/replay`);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json()).toMatchObject({
      replay: {
        requestId: expect.stringMatching(/^replay-/),
        replayOf: entry!.id,
        replayedBy: expect.stringMatching(/^admin:[0-9a-f]{12}$/),
      },
      outcome: 'processed',
      answer: { statusCode: 200, body: { results: [expect.objectContaining({ transactionId: '450789469', status: 'processed' })] } },
    });
    const earned = await balance();
    expect(earned).toBeGreaterThan(before);

    // The ledger's keys still decide: replayed again, or redelivered by Shopify, it earns nothing more.
    expect((await t.admin('POST', `/admin/deliveries/${entry!.id}/replay`)).json()).toMatchObject({ outcome: 'duplicate' });
    const redelivered = await t.app.inject({ method: 'POST', url: '/webhooks/shopify', headers: shopifyHeaders(), payload: paid });
    expect(redelivered.json().results).toEqual([expect.objectContaining({ status: 'duplicate' })]);
    expect(await balance()).toBe(earned);

    const story = (await t.admin('GET', `/admin/deliveries/${entry!.id}`)).json();
    expect(story.replays.map((r: Record<string, unknown>) => [r.status, r.outcome, r.route, r.replayOf, r.requestKept])).toEqual([
      [500, 'engine_unavailable_retry', '/webhooks/shopify', entry!.id, true],
      [200, 'processed', '/webhooks/shopify', entry!.id, true],
      [200, 'duplicate', '/webhooks/shopify', entry!.id, true],
    ]);
  });

  it('a replay header from outside grants nothing: the request is an ordinary delivery, authenticated and journalled as one', async () => {
    const forged = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      headers: shopifyHeaders({ [REPLAY_HEADER]: 'not-a-ticket-of-this-process' }),
      payload: paid,
    });
    expect(forged.statusCode).toBe(200);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      headers: { ...shopifyHeaders(), 'x-shopify-hmac-sha256': 'AAAA', [REPLAY_HEADER]: 'x' },
      payload: paid,
    });
    expect(unsigned.statusCode).toBe(401);
    const entries = await journalEntries('?vendor=shopify');
    expect(entries.map((e) => [e.status, e.replayOf, e.replayedBy, e.requestKept])).toEqual([
      [401, null, null, false],
      [200, null, null, false],
    ]);
  });

  it('a checkout call is not replayed (the till retries it); a delivery whose door this gateway no longer has says so', async () => {
    const kept = { body: Buffer.from('{}'), headers: { 'content-type': 'application/json' } };
    const failed = (requestId: string, route: string) => ({
      requestId,
      receivedAt: new Date(),
      method: 'POST',
      route,
      status: 500,
      outcome: 'internal_error',
      durationMs: 1,
    });
    t.journal!.record(failed('R-CHECKOUT', '/v1/refund'), kept.body, kept);
    t.journal!.record(failed('R-GONE', '/webhooks/retired-pos'), kept.body, kept);
    const checkout = await t.admin('POST', '/admin/deliveries/R-CHECKOUT/replay');
    expect(checkout.json()).toMatchObject({
      statusCode: 409,
      code: 'replay_not_available',
      message: expect.stringContaining('/v1/refund is a checkout call'),
    });
    const gone = await t.admin('POST', '/admin/deliveries/R-GONE/replay');
    expect(gone.json()).toMatchObject({
      statusCode: 409,
      code: 'replay_not_available',
      message: expect.stringContaining('no door /webhooks/retired-pos'),
    });
    expect((await journalEntries('?limit=10')).filter((e) => e.replayOf)).toEqual([]);
  });
});
