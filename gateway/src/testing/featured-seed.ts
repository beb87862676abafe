/** A seed document with the three featured vendors, one merchant, members matching the adapters' fixtures (`buildSeed`'s featured base). */
import { buildSeed, type FeaturedSeedOptions, type SeedDocument } from './seed-builder.js';

export {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  GENERIC_SECRET,
  MEMBERS,
  SHOP_DOMAIN,
  SHOPIFY_APP_SECRET,
  SQUARE_LOCATION,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  type FeaturedSeedOptions,
} from './seed-builder.js';

export function featuredSeedDocument(options: FeaturedSeedOptions = {}): SeedDocument {
  return buildSeed({ base: 'featured', featured: options });
}

/**
 * The featured seed plus WooCommerce (of `tier`) with one store at `site` signing with `secret`,
 * and the member its documented orders bill (john.doe@example.com, MBR-WOO), so they earn.
 */
export function seedWithWooCommerce(
  site: string,
  secret: string,
  tier: 'generic' | 'featured',
  options: FeaturedSeedOptions = {},
): SeedDocument {
  return buildSeed({
    base: 'featured',
    featured: options,
    vendors: [{ slug: 'woocommerce', name: 'WooCommerce', tier, settings: {} }],
    members: [{ membershipId: 'MBR-WOO', email: 'john.doe@example.com', points: 0 }],
    connections: [
      {
        vendor: 'woocommerce',
        storeId: site,
        outletId: 'o-web',
        secret,
        credentials: { consumerKey: 'ck_test0001', consumerSecret: 'cs_test0001' },
      },
    ],
  });
}
