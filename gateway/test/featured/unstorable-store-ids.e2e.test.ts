import { adapter as square } from '@loyalty-gateway/adapter-square';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { CLOVER_AUTH_CODE, SQUARE_NOTIFICATION_URL, SQUARE_SIGNATURE_KEY, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';

/**
 * A verified delivery naming a store whose id holds a NUL character or an unpaired surrogate
 * (valid JSON escapes no connection's store id holds: StoreId refuses them) is a delivery for a
 * store the gateway does not know: 200 with the store in `skipped`, nothing applied. PostgreSQL
 * refused the connection lookup with a NUL (a 500, redelivered by the vendor for a day), and both
 * drivers send an unpaired surrogate as U+FFFD, which could match another store. Found by the HTTP
 * fuzz of the featured doors (featured-http-fuzz.test.ts) with another seed, on PostgreSQL.
 */
describe.each(testDialects())('featured doors: a store id no connection can hold ($name)', ({ name }) => {
  let gw: FeaturedGateway;
  beforeAll(async () => {
    const seed = featuredSeedDocument();
    // A store whose id is the replacement character an unpaired surrogate would be sent as.
    (seed.merchants[0]!.connections as unknown[]).push({
      vendor: 'square',
      storeId: 'LOC\ufffd',
      outletId: 'o-till',
      credentials: { accessToken: 'EAAA-other' },
    });
    gw = await openFeaturedGateway({ seedDocument: seed, dialect: name });
  });
  afterAll(() => gw?.close());

  it.each(['LOC\\u0000', 'LOC\\ud800'])('a signed Square event for location %s: 200, the store skipped as unknown', async (location) => {
    const body = Buffer.from(
      adapterFixture('square', 'payment-updated-completed.json')
        .toString('utf8')
        .replace(/"location_id":\s*"[^"]*"/g, `"location_id": "${location}"`),
    );
    const response = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/square',
      headers: {
        'content-type': 'application/json',
        ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body),
      },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'accepted', results: [], skipped: [{ reason: 'unknown_connection' }] });
  });

  it.each(['XYZ\\u0000', 'XYZ\\udc00'])('a Clover notification for merchant %s: 200, the store skipped as unknown', async (merchant) => {
    const body = Buffer.from(
      `{"appId":"DRKVJT2ZRRRSC","merchants":{"${merchant}":[{"objectId":"O:GHIVJT2ABCRSC","type":"UPDATE","ts":1}]}}`,
    );
    const response = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'accepted', results: [], skipped: [{ reason: 'unknown_connection' }] });
  });
});
