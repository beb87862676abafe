import { createHmac } from 'node:crypto';
import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { fixtures } from './testing/index.js';

const SITE = 'https://shop.example.com/';
const SECRET = 'wc-webhook-secret';
const order727 = fixtures.bytes('order-727.json');
const kit = adapterKit(adapter, { settings: {}, connectionSecret: SECRET });

/** The headers WC_Webhook::deliver() adds, the signature computed as generate_signature() does, independently of the kit. */
const delivery = (body: Buffer | string, topic = 'order.updated', secret = SECRET) =>
  kit.unsigned(body, {
    'content-type': 'application/json',
    'x-wc-webhook-source': SITE,
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': topic.split('.')[0]!,
    'x-wc-webhook-event': topic.split('.')[1]!,
    'x-wc-webhook-signature': createHmac('sha256', secret).update(body).digest('base64'),
    'x-wc-webhook-id': '14',
    'x-wc-webhook-delivery-id': 'a1b2c3d4e5f6',
  });

describe('woocommerce webhook', () => {
  it("verifies the base64 HMAC-SHA256 of the raw body with the store's own webhook secret", () => {
    expect(adapter.defaultAuth).toMatchObject({
      kind: 'hmac',
      header: 'x-wc-webhook-signature',
      encoding: 'base64',
      secret: { from: 'connection' },
    });
    expect(kit.authenticate(delivery(order727))).toEqual({ ok: true });
    expect(kit.authenticate(delivery(order727, 'order.updated', 'another-store'))).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('maps a signed order.updated for the site in X-WC-Webhook-Source to the reversals it lists (none), then one sale.completed', async () => {
    const { stores, envelopes } = await kit.envelopes(delivery(order727));
    expect(stores).toEqual([SITE]);
    expect(envelopes).toMatchObject([
      { eventType: 'refunds.listed', store: { id: SITE }, transaction: { id: '727' }, refundIds: [] },
      { eventType: 'sale.completed', store: { id: SITE }, transaction: { id: '727', total: 29.35, currency: 'USD' } },
    ]);
    expect(await kit.post(delivery(order727, 'order.created'))).toMatchObject({
      statusCode: 200,
      body: {
        status: 'accepted',
        results: [
          { storeId: SITE, transactionId: '727' },
          { storeId: SITE, transactionId: '727', status: 'processed' },
        ],
      },
    });
  });

  it('answers the unsigned form-encoded ping WooCommerce sends when a webhook is saved with exactly 200', async () => {
    // WC_Webhook::deliver_ping(): body 'webhook_id=' . $id, no signature, no X-WC-* headers.
    const ping = kit.unsigned('webhook_id=14', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(await kit.envelopes(ping)).toMatchObject({ handshake: { value: '14' }, envelopes: [] });
    expect(await kit.post(ping)).toMatchObject({ statusCode: 200 });
  });

  it('refuses a bad or missing signature (401) and a delivery that names no site (400)', async () => {
    expect(await kit.post(delivery(order727, 'order.updated', 'attacker'))).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    const unsigned = delivery(order727);
    delete unsigned.headers['x-wc-webhook-signature'];
    expect(await kit.post(unsigned)).toMatchObject({ statusCode: 401, code: 'bad_signature', message: expect.stringMatching(/missing/) });
    const siteless = delivery(order727);
    delete siteless.headers['x-wc-webhook-source'];
    expect(await kit.post(siteless)).toMatchObject({ statusCode: 400, code: 'invalid_native_payload' });
  });

  it('accepts order.deleted (only the id) and other topics with nothing to do', async () => {
    expect(await kit.envelopes(delivery('{"id":727}', 'order.deleted'))).toMatchObject({
      envelopes: [],
      notes: ['WooCommerce topic "order.deleted" is not used for loyalty: nothing to do'],
    });
    expect(await kit.post(delivery('{"id":93,"name":"Woo Single #1"}', 'product.updated'))).toMatchObject({ statusCode: 200 });
  });

  it('takes the site address as the store id exactly as X-WC-Webhook-Source sends it (home_url with its final "/")', () => {
    expect(adapter.storeId?.safeParse(SITE).success).toBe(true);
    expect(adapter.storeId?.safeParse('https://shop.example.com').error?.issues[0]?.message).toBe(
      'must end with "/", exactly as WooCommerce sends it (e.g. https://shop.example.com/)',
    );
    expect(adapter.storeId?.safeParse('https://user:pw@shop.example.com/').success).toBe(false);
  });
});
