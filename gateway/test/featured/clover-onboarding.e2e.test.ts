import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/start-gateway.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { CLOVER_MERCHANT, MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson } from '../../src/testing/native-fixtures.js';

/**
 * Clover onboards in the order Clover requires (docs/operators.md, "Onboarding Clover"): the
 * verification call comes when the webhook URL is saved, BEFORE Clover issues the auth code that
 * the promotion needs. So the door records the verification for a registered adapter whatever its
 * tier or settings; nothing else is accepted until the vendor is promoted.
 */
describe("the whole onboarding order works: Clover's verification call is answered while the vendor is not yet promoted, never 404", () => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  const AUTH_CODE = 'a1b2c3d4-auth-code-issued-after-verification';
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(`/v3/merchants/${CLOVER_MERCHANT}/orders/GHIVJT2ABCRSC`, { body: adapterFixtureJson('clover', 'order-paid.json') });
    api.route(`/v3/merchants/${CLOVER_MERCHANT}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    const seed = featuredSeedDocument({ cloverApi: api.baseUrl, tiers: { clover: 'generic' } });
    // A generic vendor with no provider settings yet: the auth code does not exist.
    const clover = seed.vendors.find((v) => v.slug === 'clover')! as { settings?: unknown };
    delete clover.settings;
    // A generic vendor's connection carries its generic-door secret; it stays when the vendor is promoted.
    for (const c of seed.merchants[0]!.connections as Array<{ vendor: string; secret?: string }>)
      if (c.vendor === 'clover') c.secret = 'whsec_clover_generic_0123456789abcdef';
    gw = await openFeaturedGateway({ seedDocument: seed });
  });
  afterAll(async () => {
    await gw.close();
    await api.close();
  });

  const post = (body: Buffer | string, auth?: string) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      payload: body,
      headers: { 'content-type': 'application/json', ...(auth ? { 'x-clover-auth': auth } : {}) },
    });
  const notification = () =>
    Buffer.from(
      JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: [{ objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1_700_000_000_000 }] },
      }),
    );

  it('1. saving the URL in Clover: its verification call is answered 200 and recorded while the vendor is generic with no settings', async () => {
    const response = await post(adapterFixture('clover', 'webhook-verification.json'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'handshake' });
    const [note] = await gw.notes.listVendorNotes('clover');
    expect(note).toMatchObject({ kind: 'clover.handshake', value: '5220ecf5-7dea-4396-b0ba-a1659c182887' });
  });

  it('2. anything else before promotion is still 404 vendor_not_featured', async () => {
    const response = await post(notification(), AUTH_CODE);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'vendor_not_featured' });
  });

  it("3. the auth code Clover issues is saved, 4. the vendor promoted: Clover's next notification earns", async () => {
    await gw.store.setVendorSettings('clover', { authCode: AUTH_CODE, apiBaseUrl: api.baseUrl });
    await gw.store.setVendorTier('clover', 'featured');
    const response = await post(notification(), AUTH_CODE);
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0]).toMatchObject({
      storeId: CLOVER_MERCHANT,
      status: 'processed',
      membershipId: MEMBERS.clover.membershipId,
    });
  });
});

describe("the runbook's Clover step 2 on a fresh gateway (no clover vendor row, no seed): the recorded code is read through the admin API", () => {
  const TOKEN = 'adm_clover_onboarding_0123456789abcdef';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-clover-notes-'));
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_ENV: 'uat',
      GATEWAY_DATA_DIR: dir,
      GATEWAY_ADMIN_TOKEN: TOKEN,
      GATEWAY_SCHEDULER: 'off',
      GATEWAY_SEED_FILE: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOYALTY_ENGINE_URL: '',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const admin = (url: string) => fetch(`${gw.address}${url}`, { headers: { authorization: `Bearer ${TOKEN}` } });

  it('1. the verification call is answered 200; 2. admin vendors notes clover lists its code, though no clover vendor row exists yet', async () => {
    const vendors = (await (await admin('/admin/vendors')).json()) as { vendors: Array<{ slug: string; exists?: boolean }> };
    expect(vendors.vendors.find((v) => v.slug === 'clover')).toMatchObject({ exists: false });
    const verification = await fetch(`${gw.address}/webhooks/clover`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: adapterFixture('clover', 'webhook-verification.json'),
    });
    expect(verification.status).toBe(200);
    const notes = await admin('/admin/vendors/clover/notes');
    expect(notes.status).toBe(200);
    expect(((await notes.json()) as { notes: unknown[] }).notes).toEqual([
      expect.objectContaining({ kind: 'clover.handshake', value: '5220ecf5-7dea-4396-b0ba-a1659c182887' }),
    ]);
  });

  it('a slug with neither an adapter nor a vendor row is still 404 vendor_not_found', async () => {
    const response = await admin('/admin/vendors/no-such-vendor/notes');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'vendor_not_found' });
  });
});
