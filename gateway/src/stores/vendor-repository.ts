import type { Kysely, Selectable } from 'kysely';
import type { SecretBox } from './secret-box.js';
import { sealContext, type GatewayTables, type GwVendorsTable, type VendorTier } from './gateway-tables.js';
import type { SecretJson, Vendor, VendorInput, VendorSummary } from './gateway-store-types.js';
import { VendorNotFoundError } from './store-errors.js';
import { VendorInputSchema, VendorNameInput, VendorSlug, VendorTierInput, SecretJsonSchema, parseInput } from './store-inputs.js';

export interface RepositoryContext {
  db: Kysely<GatewayTables>;
  box: SecretBox;
  now: () => Date;
}

/** Vendors: slug, display name, tier (promotion/demotion) and encrypted provider settings. */
export function createVendorRepository({ db, box, now }: RepositoryContext) {
  const sealSettings = (slug: string, settings: SecretJson | null | undefined) =>
    settings ? box.seal(JSON.stringify(settings), sealContext.vendorSettings(slug)) : null;

  const toVendor = (row: Selectable<GwVendorsTable>): Vendor => ({
    slug: row.slug,
    name: row.name,
    tier: row.tier,
    settings:
      row.settings_sealed === null ? null : (JSON.parse(box.open(row.settings_sealed, sealContext.vendorSettings(row.slug))) as SecretJson),
    createdAt: new Date(Number(row.created_at)),
    updatedAt: new Date(Number(row.updated_at)),
  });

  async function get(slug: string): Promise<Vendor | null> {
    const row = await db.selectFrom('gw_vendors').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row ? toVendor(row) : null;
  }

  async function require(slug: string): Promise<Vendor> {
    const vendor = await get(slug);
    if (!vendor) throw new VendorNotFoundError(slug);
    return vendor;
  }

  async function update(slug: string, values: { name?: string; tier?: VendorTier; settings_sealed?: string | null }): Promise<Vendor> {
    const result = await db
      .updateTable('gw_vendors')
      .set({ ...values, updated_at: now().getTime() })
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new VendorNotFoundError(slug);
    return require(slug);
  }

  return {
    get,

    async upsert(input: VendorInput): Promise<Vendor> {
      const v = parseInput(VendorInputSchema, input, 'vendor');
      const at = now().getTime();
      const sealed = sealSettings(v.slug, v.settings);
      await db
        .insertInto('gw_vendors')
        .values({ slug: v.slug, name: v.name, tier: v.tier, settings_sealed: sealed, created_at: at, updated_at: at })
        .onConflict((oc) =>
          oc.column('slug').doUpdateSet({
            name: v.name,
            tier: v.tier,
            updated_at: at,
            ...(v.settings === undefined ? {} : { settings_sealed: sealed }),
          }),
        )
        .execute();
      return require(v.slug);
    },

    async ensure(input: VendorInput): Promise<{ vendor: Vendor; created: boolean }> {
      const v = parseInput(VendorInputSchema, input, 'vendor');
      const at = now().getTime();
      const result = await db
        .insertInto('gw_vendors')
        .values({
          slug: v.slug,
          name: v.name,
          tier: v.tier,
          settings_sealed: sealSettings(v.slug, v.settings),
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('slug').doNothing())
        .executeTakeFirst();
      return { vendor: await require(v.slug), created: (result.numInsertedOrUpdatedRows ?? 0n) > 0n };
    },

    async list(): Promise<VendorSummary[]> {
      const rows = await db.selectFrom('gw_vendors').selectAll().orderBy('slug').execute();
      return rows.map((row) => ({
        slug: row.slug,
        name: row.name,
        tier: row.tier,
        hasSettings: row.settings_sealed !== null,
        createdAt: new Date(Number(row.created_at)),
        updatedAt: new Date(Number(row.updated_at)),
      }));
    },

    setName(slug: string, name: string): Promise<Vendor> {
      return update(parseInput(VendorSlug, slug, 'vendor slug'), { name: parseInput(VendorNameInput, name, 'vendor name') });
    },

    setTier(slug: string, tier: VendorTier): Promise<Vendor> {
      return update(parseInput(VendorSlug, slug, 'vendor slug'), { tier: parseInput(VendorTierInput, tier, 'vendor tier') });
    },

    setSettings(slug: string, settings: SecretJson | null): Promise<Vendor> {
      const parsed = parseInput(SecretJsonSchema, settings, 'vendor settings');
      return update(parseInput(VendorSlug, slug, 'vendor slug'), { settings_sealed: sealSettings(slug, parsed) });
    },
  };
}

export type VendorRepository = ReturnType<typeof createVendorRepository>;
