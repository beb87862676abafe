/** A seed document with the three featured vendors, one merchant, members matching the adapters' fixtures. */
export const SHOP_DOMAIN = 'bean-there.myshopify.com';
export const SQUARE_LOCATION = 'S8GWD5R9QB376';
export const CLOVER_MERCHANT = 'XYZVJT2ZRRRSC';
export const SHOPIFY_APP_SECRET = 'shpss_test_app_secret';
export const SQUARE_SIGNATURE_KEY = 'sq-signature-key';
export const SQUARE_NOTIFICATION_URL = 'https://loyalty.example.com/webhooks/square';
export const CLOVER_AUTH_CODE = '0307e264-b33a-4913-88aa-37b10014a0b8';
export const GENERIC_SECRET = 'whsec_featured_generic_0123456789';

/** Members whose email is the customer of each adapter's fixture. */
export const MEMBERS = {
  shopify: { membershipId: 'MBR-SHOP', email: 'bob.norman@mail.example.com', points: 0 },
  square: { membershipId: 'MBR-SQUARE', email: 'test.buyer@example.com', points: 0 },
  clover: { membershipId: 'MBR-CLOVER', email: 'jane.doe@example.com', points: 0 },
} as const;

export interface FeaturedSeedOptions {
  /** Recorded vendor API base URLs (fetch-back, catalog and reconciliation pulls). */
  shopifyApi?: string;
  squareApi?: string;
  cloverApi?: string;
  /** An operator's scheme override for Clover (`settings.auth`), e.g. mTLS. */
  cloverAuth?: unknown;
  /** Tier of each vendor (featured unless given). */
  tiers?: Partial<Record<'shopify' | 'square' | 'clover', 'generic' | 'featured'>>;
}

export function featuredSeedDocument(options: FeaturedSeedOptions = {}) {
  const tier = (slug: 'shopify' | 'square' | 'clover') => options.tiers?.[slug] ?? 'featured';
  return {
    codePrefix: 'LOYAL',
    vendors: [
      {
        slug: 'shopify',
        name: 'Shopify',
        tier: tier('shopify'),
        settings: { appSecret: SHOPIFY_APP_SECRET, ...(options.shopifyApi ? { apiBaseUrl: options.shopifyApi } : {}) },
      },
      {
        slug: 'square',
        name: 'Square',
        tier: tier('square'),
        settings: {
          signatureKey: SQUARE_SIGNATURE_KEY,
          notificationUrl: SQUARE_NOTIFICATION_URL,
          ...(options.squareApi ? { apiBaseUrl: options.squareApi } : {}),
        },
      },
      {
        slug: 'clover',
        name: 'Clover',
        tier: tier('clover'),
        settings: {
          authCode: CLOVER_AUTH_CODE,
          ...(options.cloverApi ? { apiBaseUrl: options.cloverApi } : {}),
          ...(options.cloverAuth ? { auth: options.cloverAuth } : {}),
        },
      },
    ],
    merchants: [
      {
        id: 'm-bean',
        name: 'Bean There',
        currency: 'USD',
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 100,
        outlets: [
          { id: 'o-web', name: 'Web shop' },
          { id: 'o-till', name: 'Till' },
        ],
        connections: [
          // A secret lets the generic door serve this store too (promotion keeps both doors open).
          {
            vendor: 'shopify',
            storeId: SHOP_DOMAIN,
            outletId: 'o-web',
            secret: GENERIC_SECRET,
            credentials: { accessToken: 'shpat_fake' },
          },
          { vendor: 'square', storeId: SQUARE_LOCATION, outletId: 'o-till', credentials: { accessToken: 'EAAA-fake-token' } },
          { vendor: 'clover', storeId: CLOVER_MERCHANT, outletId: 'o-till', credentials: { accessToken: 'fake-oauth-access-token' } },
        ],
        members: Object.values(MEMBERS).map((m) => ({ ...m })),
        rewards: [],
        issuedCodes: [],
      },
    ],
  };
}

/**
 * The featured seed plus WooCommerce (of `tier`) with one store at `site` signing with `secret`,
 * and the member its documented orders bill (john.doe@example.com, MBR-WOO), so they earn.
 */
export function seedWithWooCommerce(site: string, secret: string, tier: 'generic' | 'featured', options: FeaturedSeedOptions = {}) {
  const doc = featuredSeedDocument(options);
  (doc.vendors as unknown[]).push({ slug: 'woocommerce', name: 'WooCommerce', tier, settings: {} });
  doc.merchants[0]!.members.push({ membershipId: 'MBR-WOO', email: 'john.doe@example.com', points: 0 } as never);
  (doc.merchants[0]!.connections as unknown[]).push({
    vendor: 'woocommerce',
    storeId: site,
    outletId: 'o-web',
    secret,
    credentials: { consumerKey: 'ck_test0001', consumerSecret: 'cs_test0001' },
  });
  return doc;
}
