/**
 * The one builder of the seed documents gateway tests run on (the sandbox file format, connections
 * included): one merchant, `m-bean`, on either base —
 *
 * - `generic` (the default): two generic vendors (`acme-pos`, `other-pos`), outlets `o-downtown`
 *   and `o-uptown`, three acme-pos connections (one with an odd store id, one inactive), two
 *   members and a stamp and a points reward;
 * - `featured`: Shopify, Square and Clover (featured unless `tiers` says otherwise) with their
 *   operator settings, outlets `o-web` and `o-till`, one connection each and the members their
 *   adapters' fixtures bill.
 *
 * What a test adds (vendors, connections, members, rewards, issued codes) is appended to the base.
 * The named seeds (`testSeedDocument`, `featuredSeedDocument`, `seedWithWooCommerce`,
 * `operatorSeed`, `checkoutSeedDocument`, `cloverSeed`) are calls of it.
 */

// The generic base.
export const SECRET = 'whsec_test_secret_0123456789abcdef';
export const OTHER_SECRET = 'whsec_other_secret_0123456789abcdef';
export const VENDOR = 'acme-pos';
export const STORE = 'store-001';
/** A store id as a merchant typed it: case, inner space and a slash are all significant. */
export const ODD_STORE = 'Main St/Unit 7';
export const INACTIVE_STORE = 'store-closed';
export const STAMP_REWARD = '6f1c2a7e-0b7d-4c1a-9a3e-000000000001';

// The featured base.
export const SHOP_DOMAIN = 'bean-there.myshopify.com';
export const SQUARE_LOCATION = 'S8GWD5R9QB376';
export const CLOVER_MERCHANT = 'XYZVJT2ZRRRSC';
export const SHOPIFY_APP_SECRET = 'shpss_test_app_secret';
export const SQUARE_SIGNATURE_KEY = 'sq-signature-key';
export const SQUARE_NOTIFICATION_URL = 'https://loyalty.example.com/webhooks/square';
export const CLOVER_AUTH_CODE = '0307e264-b33a-4913-88aa-37b10014a0b8';
export const GENERIC_SECRET = 'whsec_featured_generic_0123456789';

/** Members whose email is the customer of each adapter's fixture (the featured base). */
export const MEMBERS = {
  shopify: { membershipId: 'MBR-SHOP', email: 'bob.norman@mail.example.com', points: 0 },
  square: { membershipId: 'MBR-SQUARE', email: 'test.buyer@example.com', points: 0 },
  clover: { membershipId: 'MBR-CLOVER', email: 'jane.doe@example.com', points: 0 },
} as const;

export type SeedVendor = {
  slug: string;
  name: string;
  tier: 'generic' | 'featured';
  settings?: Record<string, unknown>;
};

export type SeedConnection = {
  vendor: string;
  storeId: string;
  outletId: string;
  secret?: string;
  active?: boolean;
  credentials?: Record<string, unknown>;
};

export type SeedMember = {
  membershipId: string;
  phone?: string;
  email?: string;
  externalId?: string;
  points: number;
};

export type SeedReward = { id: string; type: string; title: string } & Record<string, unknown>;

export type SeedIssuedCode = {
  code: string;
  rewardId: string;
  membershipId: string;
};

export type SeedMerchant = {
  id: string;
  name: string;
  currency: string;
  defaultCountryCode: string;
  earnRate: number;
  redemptionRate: number;
  outlets: { id: string; name: string }[];
  connections: SeedConnection[];
  members: SeedMember[];
  rewards: SeedReward[];
  issuedCodes: SeedIssuedCode[];
};

export type SeedDocument = {
  codePrefix?: string;
  vendors: SeedVendor[];
  merchants: SeedMerchant[];
};

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

export interface SeedOptions {
  /** The base document (`generic` unless given). */
  base?: 'generic' | 'featured';
  /** Settings of the featured base's vendors. */
  featured?: FeaturedSeedOptions;
  /** Appended to the base's vendors. */
  vendors?: readonly SeedVendor[];
  /** Appended to merchant m-bean's connections, members, rewards and issued codes. */
  connections?: readonly SeedConnection[];
  members?: readonly SeedMember[];
  rewards?: readonly SeedReward[];
  issuedCodes?: readonly SeedIssuedCode[];
}

const merchant = (outlets: SeedMerchant['outlets']): Omit<SeedMerchant, 'connections' | 'members' | 'rewards' | 'issuedCodes'> => ({
  id: 'm-bean',
  name: 'Bean There',
  currency: 'USD',
  defaultCountryCode: '1',
  earnRate: 1,
  redemptionRate: 100,
  outlets,
});

function genericBase(): SeedDocument {
  return {
    codePrefix: 'LOYAL',
    vendors: [
      { slug: VENDOR, name: 'Acme POS', tier: 'generic' },
      { slug: 'other-pos', name: 'Other POS', tier: 'generic' },
    ],
    merchants: [
      {
        ...merchant([
          { id: 'o-downtown', name: 'Downtown' },
          { id: 'o-uptown', name: 'Uptown' },
        ]),
        connections: [
          { vendor: VENDOR, storeId: STORE, outletId: 'o-downtown', secret: SECRET, active: true },
          { vendor: VENDOR, storeId: ODD_STORE, outletId: 'o-uptown', secret: OTHER_SECRET, active: true },
          { vendor: VENDOR, storeId: INACTIVE_STORE, outletId: 'o-uptown', secret: SECRET, active: false },
        ],
        members: [
          { membershipId: 'MBR-0001', phone: '+15550100001', email: 'ann@example.com', externalId: 'crm-1', points: 1200 },
          { membershipId: 'MBR-0002', phone: '+15550100002', email: 'bob@example.com', points: 0 },
        ],
        rewards: [
          {
            id: STAMP_REWARD,
            type: 'STAMP',
            title: 'Buy 5 coffees, get one free',
            stampsRequired: 5,
            match: { skus: ['COF-LATTE'], keywords: ['coffee'] },
          },
          { id: '6f1c2a7e-0b7d-4c1a-9a3e-000000000002', type: 'POINTS', title: '$5 off', pointsCost: 500, discountValue: 5 },
        ],
        issuedCodes: [],
      },
    ],
  };
}

function featuredBase(options: FeaturedSeedOptions): SeedDocument {
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
        ...merchant([
          { id: 'o-web', name: 'Web shop' },
          { id: 'o-till', name: 'Till' },
        ]),
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

/** A fresh seed document (each call its own objects: a test may change it). */
export function buildSeed(options: SeedOptions = {}): SeedDocument {
  const doc = options.base === 'featured' ? featuredBase(options.featured ?? {}) : genericBase();
  const m = doc.merchants[0]!;
  doc.vendors.push(...(options.vendors ?? []));
  m.connections.push(...(options.connections ?? []));
  m.members.push(...(options.members ?? []));
  m.rewards.push(...(options.rewards ?? []));
  m.issuedCodes.push(...(options.issuedCodes ?? []));
  return doc;
}
