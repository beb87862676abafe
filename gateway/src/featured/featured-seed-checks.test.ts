import { describe, expect, it } from 'vitest';
import { parseSeed } from '../boot/seed-schema.js';
import { featuredSeedDocument } from '../testing/featured-seed.js';

const issuesOf = (document: unknown) => {
  const parsed = parseSeed(document);
  return 'issues' in parsed ? parsed.issues : [];
};

describe("the seed's featured checks", () => {
  it('a featured connection without the credentials its adapter requires is refused at boot, naming the field', () => {
    const doc = featuredSeedDocument();
    const { credentials: _dropped, ...square } = doc.merchants[0]!.connections[1]!;
    doc.merchants[0]!.connections[1] = square as never;
    expect(issuesOf(doc)).toEqual([{ path: 'merchants[0].connections[1].credentials.accessToken', message: 'is required' }]);
  });

  it('credentials an adapter does not need may be omitted (Shopify: only the catalog pull uses its token)', () => {
    const doc = featuredSeedDocument();
    const { credentials: _dropped, ...shopify } = doc.merchants[0]!.connections[0]!;
    doc.merchants[0]!.connections[0] = shopify as never;
    expect(issuesOf(doc)).toEqual([]);
  });

  it('a Shopify store id that is not its myshopify.com domain is refused (the access token would go to that host)', () => {
    const doc = featuredSeedDocument();
    doc.merchants[0]!.connections[0]!.storeId = 'evil.example/x?';
    expect(issuesOf(doc)).toEqual([
      { path: 'merchants[0].connections[0].storeId', message: expect.stringContaining('myshopify.com domain') },
    ]);
  });

  it('refuses a provider settings key the adapter does not know, by name (a seed writes settings; only settings already stored ignore one)', () => {
    const doc = featuredSeedDocument();
    doc.vendors[1]!.settings = { ...doc.vendors[1]!.settings, apiBaseURL: 'https://connect.squareupsandbox.com' } as never;
    expect(issuesOf(doc)).toEqual([{ path: 'vendors[1].settings.apiBaseURL', message: 'unknown field' }]);
  });

  it("checks them whatever the vendor's tier: a later promotion must not find them missing", () => {
    const doc = featuredSeedDocument({ tiers: { clover: 'generic' } });
    const { credentials: _dropped, ...clover } = doc.merchants[0]!.connections[2]!;
    doc.merchants[0]!.connections[2] = { ...clover, secret: 'whsec_clover_generic_secret_0123456789' } as never;
    expect(issuesOf(doc)).toEqual([{ path: 'merchants[0].connections[2].credentials.accessToken', message: 'is required' }]);
  });
});
