import { randomBytes } from 'node:crypto';
import { createEmbeddedEngine } from '@loyalty-gateway/engine';
import { describe, expect, it } from 'vitest';
import { createGatewayStore } from '../stores/index.js';
import { CLOVER_MERCHANT, SQUARE_LOCATION, featuredSeedDocument } from '../testing/featured-seed.js';
import { parseSeed, type SeedIssue } from './seed-schema.js';
import { applySeed } from './seed.js';
import { openMigratedDatabase } from '../testing/migrated-database.js';

const issuesOf = (document: unknown): SeedIssue[] => {
  const parsed = parseSeed(document);
  return 'issues' in parsed ? parsed.issues : [];
};

describe('seed file: featured vendors', () => {
  it("accepts featured vendors with their adapter's settings and connections with credentials and no secret", () => {
    const parsed = parseSeed(featuredSeedDocument({ squareApi: 'http://127.0.0.1:9/' }));
    if (!('seed' in parsed)) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.seed.vendors.map((v) => [v.slug, v.tier])).toEqual([
      ['shopify', 'featured'],
      ['square', 'featured'],
      ['clover', 'featured'],
    ]);
    const square = parsed.seed.connections.find((c) => c.vendor === 'square')!;
    expect(square).toMatchObject({ storeId: SQUARE_LOCATION, merchantId: 'm-bean', credentials: { accessToken: 'EAAA-fake-token' } });
    expect(square.secret).toMatch(/^whsec_/); // generated: the featured door never reads it
  });

  it('names the seed path of every featured problem', () => {
    const doc: any = featuredSeedDocument();
    delete doc.vendors[1].settings.notificationUrl; // Square needs it
    doc.vendors[0].settings.auth = { kind: 'hmac' }; // an override missing its header and secret
    doc.vendors.push({ slug: 'acme-pos', name: 'Acme', tier: 'featured' }); // no adapter
    doc.vendors.push({ slug: 'other-pos', name: 'Other', tier: 'generic', settings: { x: 1 } });
    doc.merchants[0].connections[2].credentials = { token: 'x' }; // Clover wants accessToken only
    doc.merchants[0].connections[0].secret = undefined; // Shopify's generic connection: secret optional (featured, app secret)
    doc.merchants[0].connections.push({ vendor: 'other-pos', storeId: 's-1', outletId: 'o-till' }); // generic: secret required
    const paths = issuesOf(doc).map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'vendors[1].settings.notificationUrl',
        'vendors[0].settings.auth.header',
        'vendors[0].settings.auth.secret',
        'vendors[3].tier',
        'vendors[4].settings',
        'merchants[0].connections[2].credentials.accessToken',
        'merchants[0].connections[2].credentials.token',
        'merchants[0].connections[3].secret',
      ]),
    );
    expect(paths).not.toContain('merchants[0].connections[0].secret');
  });

  it("requires settings for a featured vendor and a secret when its scheme reads the connection's", () => {
    const doc: any = featuredSeedDocument();
    delete doc.vendors[2].settings;
    expect(issuesOf(doc)).toContainEqual({ path: 'vendors[2].settings', message: expect.stringContaining('required') });
    const perConnection: any = featuredSeedDocument();
    perConnection.vendors[2].settings.auth = { kind: 'static-header', header: 'x-token', secret: { from: 'connection' } };
    expect(issuesOf(perConnection)).toContainEqual({ path: 'merchants[0].connections[2].secret', message: expect.any(String) });
  });

  it('a featured vendor whose adapter needs no settings (WooCommerce) needs no settings entry; its per-store secret is required', () => {
    const doc: any = featuredSeedDocument();
    doc.vendors.push({ slug: 'woocommerce', name: 'WooCommerce', tier: 'featured' });
    doc.merchants[0].connections.push({
      vendor: 'woocommerce',
      storeId: 'https://shop.example.com/',
      outletId: 'o-web',
      secret: 'wc-store-secret-0123456789',
    });
    expect(issuesOf(doc)).toEqual([]);
    delete doc.merchants[0].connections[3].secret;
    expect(issuesOf(doc)).toEqual([{ path: 'merchants[0].connections[3].secret', message: expect.any(String) }]);
    doc.merchants[0].connections[3].secret = 'wc-store-secret-0123456789';
    doc.merchants[0].connections[3].storeId = 'https://shop.example.com';
    expect(issuesOf(doc)).toEqual([{ path: 'merchants[0].connections[3].storeId', message: expect.stringContaining('must end with "/"') }]);
  });

  it('applies settings and credentials encrypted, idempotently', async () => {
    const database = await openMigratedDatabase('sqlite');
    const store = await createGatewayStore({ database, masterKey: randomBytes(32) });
    const engine = await createEmbeddedEngine({ database });
    try {
      const parsed = parseSeed(featuredSeedDocument({ cloverApi: 'http://127.0.0.1:9' }));
      if (!('seed' in parsed)) throw new Error('invalid');
      expect(await applySeed(parsed.seed, { store, engine })).toEqual({ vendors: 3, connections: 3 });
      expect(await store.getVendor('clover')).toMatchObject({
        tier: 'featured',
        settings: { authCode: expect.any(String), apiBaseUrl: 'http://127.0.0.1:9' },
      });
      const [clover] = await store.listConnections({ vendor: 'clover' });
      expect(clover).toMatchObject({ storeId: CLOVER_MERCHANT, hasCredentials: true, active: true });
      expect(await store.getCredentials(clover!.id)).toEqual({ accessToken: 'fake-oauth-access-token' });
      const again = parseSeed(featuredSeedDocument());
      if (!('seed' in again)) throw new Error('invalid');
      expect(await applySeed(again.seed, { store, engine })).toEqual({ vendors: 0, connections: 0 });
      expect((await store.getVendor('clover'))?.settings).toMatchObject({ apiBaseUrl: 'http://127.0.0.1:9' });
    } finally {
      await engine.close();
      await store.close();
      await database.close();
    }
  });
});
