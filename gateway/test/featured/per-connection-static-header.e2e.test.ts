import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { CLOVER_AUTH_CODE, CLOVER_MERCHANT, MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixtureJson } from '../../src/testing/native-fixtures.js';

/**
 * A static-header scheme whose token is each merchant's own connection secret
 * (`secret: { from: 'connection' }`), end to end through Clover's featured door: an operator puts
 * Clover's notifications behind a relay that adds the merchant's token. Clover batches several
 * merchants in one POST, so the token is checked per store, with that store's connection secrets.
 */
const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const OTHER_MERCHANT = 'MNOVJT2ZRRRSC';
const XYZ_TOKEN = 'whsec_xyz_merchant_token_0123456789';
const MNO_TOKEN = 'whsec_mno_merchant_token_9876543210';
const member = MEMBERS.clover.membershipId;
const paidOrder = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown>;

function seedDocument(cloverApi: string) {
  const doc = featuredSeedDocument({
    cloverApi,
    cloverAuth: { kind: 'static-header', header: 'X-Merchant-Token', secret: { from: 'connection' } },
  });
  const merchant = doc.merchants[0]!;
  const clover = merchant.connections.find((c) => c.vendor === 'clover')! as Record<string, unknown>;
  clover.secret = XYZ_TOKEN;
  merchant.connections.push({
    vendor: 'clover',
    storeId: OTHER_MERCHANT,
    outletId: 'o-web',
    secret: MNO_TOKEN,
    credentials: { accessToken: 'other-token' },
  } as never);
  return doc;
}

describe.each(dialects)('per-connection static-header token through a featured door (%s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let ts = 1_700_000_000_000;
  beforeAll(async () => {
    api = await startRecordedVendorServer({ key: ({ url }) => url.pathname.replace(/\/orders\/.*/, '/orders/*') });
    api.route(`/v3/merchants/${CLOVER_MERCHANT}/orders/*`, { body: paidOrder });
    api.route(`/v3/merchants/${OTHER_MERCHANT}/orders/*`, { body: { ...paidOrder, customers: { elements: [] } } });
    api.route(`/v3/merchants/${CLOVER_MERCHANT}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    gw = await openFeaturedGateway({ seedDocument: seedDocument(api.baseUrl), dialect });
  });
  afterAll(async () => {
    await gw.close();
    await api.close();
  });

  /** A notification about a new order at each merchant named, with `token` in X-Merchant-Token (none when null). */
  function post(merchants: string[], token: string | null) {
    ts += 1_000;
    const body = JSON.stringify({
      appId: 'DRKVJT2ZRRRSC',
      merchants: Object.fromEntries(
        merchants.map((m) => [m, [{ objectId: `O:${m.slice(0, 3)}${String(ts).slice(-10)}`, type: 'UPDATE', ts }]]),
      ),
    });
    return gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      payload: body,
      headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'x-merchant-token': token }) },
    });
  }

  it("the merchant's own token earns; a wrong, missing or another merchant's token is 401 bad_signature", async () => {
    const before = await gw.balance(member);
    const ok = await post([CLOVER_MERCHANT], XYZ_TOKEN);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results).toEqual([
      expect.objectContaining({ storeId: CLOVER_MERCHANT, status: 'processed', membershipId: member, pointsEarned: 38 }),
    ]);
    expect(await gw.balance(member)).toBe(before + 38);
    for (const token of ['not-a-token', null, MNO_TOKEN]) {
      const refused = await post([CLOVER_MERCHANT], token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'bad_signature' });
    }
    // Clover's own X-Clover-Auth no longer opens the door: the operator's scheme replaced it.
    const cloverAuth = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      payload: JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: [{ objectId: 'O:CLAVJT2ABCRSC', type: 'UPDATE', ts: 1 }] },
      }),
    });
    expect(cloverAuth.json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await gw.balance(member)).toBe(before + 38);
  });

  it('in a batch of two merchants, each is judged with its own secret: the other one is skipped, not processed', async () => {
    const response = await post([CLOVER_MERCHANT, OTHER_MERCHANT], MNO_TOKEN);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.results).toEqual([expect.objectContaining({ storeId: OTHER_MERCHANT, status: 'processed' })]);
    expect(answer.skipped).toEqual([{ storeId: CLOVER_MERCHANT, reason: 'bad_signature' }]);
  });

  it('rotation: both tokens verify during the overlap, only the new one after it', async () => {
    const [connection] = (await gw.store.listConnections({ vendor: 'clover' })).filter((c) => c.storeId === CLOVER_MERCHANT);
    const rotated = await gw.store.rotateSecret(connection!.id, { overlapUntil: new Date(Date.now() + 60_000) });
    expect((await post([CLOVER_MERCHANT], XYZ_TOKEN)).statusCode).toBe(200);
    expect((await post([CLOVER_MERCHANT], rotated.secret)).statusCode).toBe(200);
    await gw.store.rotateSecret(connection!.id, { overlapUntil: new Date(), secret: `${rotated.secret}-2` });
    expect((await post([CLOVER_MERCHANT], XYZ_TOKEN)).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect((await post([CLOVER_MERCHANT], `${rotated.secret}-2`)).statusCode).toBe(200);
  });
});
