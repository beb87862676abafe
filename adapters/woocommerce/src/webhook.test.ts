import { readFileSync } from 'node:fs';
import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { adapter } from './index.js';

const fixture = readFileSync(new URL('./fixtures/order-paid.json', import.meta.url));
const kit = adapterKit(adapter, { settings: { webhookSecret: 'test-secret', apiBaseUrl: 'http://127.0.0.1:1' }, credentials: { accessToken: 't' } });

describe('woocommerce webhook', () => {
  it('maps a signed order.paid to one sale.completed envelope', async () => {
    const request = kit.signed(fixture);
    expect(kit.authenticate(request)).toEqual({ ok: true });
    const { stores, envelopes } = await kit.envelopes(request);
    expect(stores).toEqual(['store-001']);
    expect(envelopes).toEqual([{
      eventId: 'evt_0001',
      eventType: 'sale.completed',
      occurredAt: '2026-11-20T10:15:00Z',
      store: { id: 'store-001' },
      transaction: {
        id: '1001', total: 12.5, currency: 'USD', channel: 'pos',
        customer: { type: 'email', value: 'ann@example.com' },
        items: [
          { id: 'p1', name: 'Latte', sku: 'COF-LATTE', quantity: 2, unitPrice: 4.5 },
          { id: 'p2', name: 'Muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPrice: 3.5 },
        ],
        discountCodes: [],
      },
    }]);
  });

  it('refuses a bad signature: the door answers 401', async () => {
    const request = kit.signed(fixture);
    request.headers['x-woocommerce-signature'] = '00'.repeat(32);
    expect(kit.authenticate(request)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(await kit.post(request)).toMatchObject({ statusCode: 401, code: 'bad_signature' });
  });

  it('answers the vendor what it expects (its declared response)', async () => {
    expect(await kit.post(kit.signed(fixture))).toMatchObject({
      statusCode: 200,
      body: { status: 'accepted', results: [{ storeId: 'store-001', transactionId: '1001', status: 'processed' }], skipped: [], notes: [] },
    });
  });
});
