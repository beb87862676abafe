import { WebhookResult } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture, type SendOptions } from '../../src/testing/gateway-fixture.js';
import { ODD_STORE, OTHER_SECRET, STORE, sale, testSeedDocument } from '../../src/testing/test-seed.js';

/** A second vendor with a connection at the same store id as acme-pos's store-001. */
const OTHER_VENDOR = 'other-pos';
const OTHER_VENDOR_SECRET = 'whsec_other_vendor_secret_0123456789';

function seedWithOtherVendor() {
  const document = testSeedDocument();
  document.merchants[0]!.connections.push({
    vendor: OTHER_VENDOR,
    storeId: STORE,
    outletId: 'o-downtown',
    secret: OTHER_VENDOR_SECRET,
    active: true,
  });
  return document;
}

let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openGateway({ seedDocument: seedWithOtherVendor() });
});
afterAll(() => gw.close());

async function ok(body: unknown, options?: SendOptions): Promise<WebhookResult> {
  const response = await gw.send(body, options);
  expect(response.statusCode, response.body).toBe(200);
  return WebhookResult.parse(response.json());
}

describe('the 24-hour cache and the ledger are scoped per vendor + store', () => {
  it('one transaction.id through another store of the same vendor and another vendor at the same store id: each processed with points', async () => {
    const id = `SCOPE-${Date.now()}`;
    const before = await gw.balance('MBR-0001');
    const home = sale({ id, total: 10 });
    expect(await ok(home)).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 10 });

    const otherStore = { secret: OTHER_SECRET, store: ODD_STORE };
    expect(await ok(sale({ id, total: 10, store: ODD_STORE }), otherStore)).toMatchObject({ status: 'processed', pointsEarned: 10 });

    const otherVendor = { vendor: OTHER_VENDOR, secret: OTHER_VENDOR_SECRET };
    expect(await ok(sale({ id, total: 10 }), otherVendor)).toMatchObject({ status: 'processed', pointsEarned: 10 });
    expect(await gw.balance('MBR-0001')).toBe(before + 30);

    // each scope remembers its own sale: every repeat is a duplicate, and nothing more is earned
    expect((await ok(home)).status).toBe('duplicate');
    expect((await ok(sale({ id, total: 10, store: ODD_STORE }), otherStore)).status).toBe('duplicate');
    expect((await ok(sale({ id, total: 10 }), otherVendor)).status).toBe('duplicate');
    expect(await gw.balance('MBR-0001')).toBe(before + 30);
  });

  it('one eventId through two connections is two events', async () => {
    const eventId = `EV-SCOPE-${Date.now()}`;
    const first = { ...sale({ total: 4 }), eventId };
    const second = { ...sale({ total: 6 }), eventId };
    expect((await ok(first)).pointsEarned).toBe(4);
    expect((await ok(second, { vendor: OTHER_VENDOR, secret: OTHER_VENDOR_SECRET })).pointsEarned).toBe(6);
  });
});
