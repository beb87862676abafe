import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { testSeedDocument } from '../../src/testing/test-seed.js';
import { parseSeed } from '../../src/boot/seed-schema.js';

// Issue 35 on the seed file: what it creates obeys the admin API's rules (ids a person can trust,
// no settings URL that points at a metadata or link-local address, `__proto__` an unknown field).

const issuesOf = (doc: unknown) => {
  const parsed = parseSeed(doc);
  return 'issues' in parsed ? parsed.issues : [];
};

function cloverVendor(settings: Record<string, unknown> | string) {
  const doc: any = testSeedDocument();
  doc.vendors.push({
    slug: 'clover',
    name: 'Clover',
    tier: 'generic',
    settings: typeof settings === 'string' ? JSON.parse(settings) : settings,
  });
  return doc;
}

describe('the seed file: hostile input', () => {
  it('a store id, vendor name or outlet id with a bidirectional control or an invisible character is refused naming its path', () => {
    const doc: any = testSeedDocument();
    doc.merchants[0].connections[0].storeId = 'store-0\u202e01';
    doc.vendors[0].name = 'Acme\u200bPOS';
    doc.merchants[0].connections[1].outletId = 'o-\u2066uptown';
    expect(issuesOf(doc)).toEqual([
      { path: 'vendors[0].name', message: 'must not contain U+200B ZERO WIDTH SPACE (an invisible character) at character 5' },
      {
        path: 'merchants[0].connections[0].storeId',
        message:
          'must not contain U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional control: it changes the order the text is shown in) at character 8',
      },
      {
        path: 'merchants[0].connections[1].outletId',
        message:
          'must not contain U+2066 LEFT-TO-RIGHT ISOLATE (a bidirectional control: it changes the order the text is shown in) at character 3',
      },
    ]);
  });

  it('two store ids of one vendor that look alike are refused, naming the first', () => {
    const doc: any = testSeedDocument();
    doc.merchants[0].connections[2].storeId = 'store\u2010001';
    expect(issuesOf(doc)).toEqual([
      {
        path: 'merchants[0].connections[2].storeId',
        message:
          'looks like the store id "store-001" of merchants[0].connections[0] (vendor acme-pos), differing only in characters that look alike: U+2010 HYPHEN where it has U+002D HYPHEN-MINUS, at character 6',
      },
    ]);
  });

  it('store ids are kept in NFC', () => {
    const doc: any = testSeedDocument();
    doc.merchants[0].connections[2].storeId = 'Cafe\u0301';
    const parsed = parseSeed(doc);
    expect('seed' in parsed && parsed.seed.connections[2]!.storeId).toBe('Caf\u00e9');
  });

  it('provider settings pointing at a cloud metadata or link-local address are refused, in any field', () => {
    expect(issuesOf(cloverVendor({ authCode: 'a', apiBaseUrl: 'https://[::ffff:a9fe:a9fe]' }))).toEqual([
      { path: 'vendors[2].settings.apiBaseUrl', message: 'must not point at a cloud metadata address (169.254.169.254)' },
    ]);
    const shopify: any = testSeedDocument();
    shopify.vendors.push({
      slug: 'shopify',
      name: 'Shopify',
      tier: 'generic',
      settings: { appSecret: 's', apiBaseUrl: 'https://169.254.3.3/admin/api/{shop}' },
    });
    expect(issuesOf(shopify)).toEqual([
      { path: 'vendors[2].settings.apiBaseUrl', message: 'must not point at a link-local address (169.254.3.3)' },
    ]);
  });

  it('a "__proto__" key in settings or credentials is an unknown field', () => {
    expect(issuesOf(cloverVendor('{"authCode":"a","__proto__":{"x":1}}'))).toEqual([
      { path: 'vendors[2].settings.__proto__', message: 'unknown field' },
    ]);
  });
});

describe.each(testDialects())('the seed file against what is stored ($name)', ({ name }) => {
  let gateway: GatewayFixture | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('a seeded store id that looks like a stored one of the same vendor is refused naming it', async () => {
    gateway = await openGateway({ dialect: name });
    const error = await gateway.store
      .ensureConnection({
        vendor: 'acme-pos',
        storeId: 'store\u2212001',
        merchantId: 'm-bean',
        outletId: 'o-uptown',
        secret: 'whsec_0123456789abcdef',
      })
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toMatch(
      /^a connection for vendor "acme-pos" and store "store\u2212001" cannot be created: its store id looks like the existing store id "store-001" of acme-pos \(connection [0-9a-f-]{36}\), differing only in characters that look alike: U\+2212 MINUS SIGN where it has U\+002D HYPHEN-MINUS, at character 6$/,
    );
    expect(await gateway.store.find('acme-pos', 'store\u2212001')).toBeNull();
  });
});
