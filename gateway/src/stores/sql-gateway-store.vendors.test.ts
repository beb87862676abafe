import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../testing/open-test-store.js';
import { StoreInputError, VendorNotFoundError } from './store-errors.js';

describe.each(testDialects())('gateway store: vendors on $name', ({ name }) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(name);
  });
  afterEach(() => t.close());

  it('ensureVendor creates once and leaves an existing vendor untouched (idempotent seeding)', async () => {
    const first = await t.store.ensureVendor({ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' });
    t.clock.advance(1_000);
    const again = await t.store.ensureVendor({ slug: 'acme-pos', name: 'Renamed', tier: 'featured', settings: { k: 'v' } });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.vendor).toEqual(first.vendor);
    expect(first.vendor).toMatchObject({ slug: 'acme-pos', name: 'Acme POS', tier: 'generic', settings: null });
  });

  it('upsertVendor creates and updates, keeping settings unless given (null removes them)', async () => {
    const created = await t.store.upsertVendor({ slug: 'shopify', name: 'Shopify', tier: 'generic', settings: { appSecret: 'a1' } });
    t.clock.advance(1_000);
    const renamed = await t.store.upsertVendor({ slug: 'shopify', name: 'Shopify Inc', tier: 'featured' });
    expect(renamed).toMatchObject({ name: 'Shopify Inc', tier: 'featured', settings: { appSecret: 'a1' } });
    expect(renamed.createdAt).toEqual(created.createdAt);
    expect(renamed.updatedAt.getTime()).toBe(created.updatedAt.getTime() + 1_000);
    expect((await t.store.upsertVendor({ slug: 'shopify', name: 'Shopify', tier: 'featured', settings: null })).settings).toBeNull();
  });

  it('promotes and demotes, and the change is visible at once through getVendor', async () => {
    await t.store.ensureVendor({ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' });
    expect((await t.store.getVendor('acme-pos'))?.tier).toBe('generic'); // now cached
    await t.store.setVendorTier('acme-pos', 'featured');
    expect((await t.store.getVendor('acme-pos'))?.tier).toBe('featured');
    await t.store.setVendorTier('acme-pos', 'generic');
    expect((await t.store.getVendor('acme-pos'))?.tier).toBe('generic');

    const other = await t.another();
    expect((await other.getVendor('acme-pos'))?.tier).toBe('generic');
    await t.store.setVendorTier('acme-pos', 'featured');
    t.clock.advance(5_000);
    expect((await other.getVendor('acme-pos'))?.tier).toBe('featured'); // another process: within the TTL
  });

  it('stores provider settings encrypted and decrypts them on read', async () => {
    await t.store.ensureVendor({ slug: 'square', name: 'Square', tier: 'featured' });
    await t.store.setVendorSettings('square', { signatureKey: 'sig-key', notificationUrl: 'https://gw.example/webhooks/square' });
    expect((await t.store.getVendor('square'))?.settings).toEqual({
      signatureKey: 'sig-key',
      notificationUrl: 'https://gw.example/webhooks/square',
    });
    const raw = await t.database.db.selectFrom('gw_vendors').select('settings_sealed').executeTakeFirstOrThrow();
    expect(raw.settings_sealed).toMatch(/^v1:/);
    expect(raw.settings_sealed).not.toContain('sig-key');
  });

  it('lists vendors by slug without their settings', async () => {
    await t.store.ensureVendor({ slug: 'square', name: 'Square', tier: 'featured', settings: { signatureKey: 'sig' } });
    await t.store.ensureVendor({ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' });
    const list = await t.store.listVendors();
    expect(list.map((v) => [v.slug, v.tier, v.hasSettings])).toEqual([
      ['acme-pos', 'generic', false],
      ['square', 'featured', true],
    ]);
    expect(JSON.stringify(list)).not.toContain('sig');
  });

  it('answers unknown vendors and bad input with typed errors', async () => {
    expect(await t.store.getVendor('nobody')).toBeNull();
    await expect(t.store.setVendorTier('nobody', 'featured')).rejects.toBeInstanceOf(VendorNotFoundError);
    await expect(t.store.setVendorSettings('nobody', { a: 1 })).rejects.toBeInstanceOf(VendorNotFoundError);
    await expect(t.store.ensureVendor({ slug: 'Acme POS', name: 'x', tier: 'generic' })).rejects.toBeInstanceOf(StoreInputError);
    await expect(t.store.setVendorTier('acme-pos', 'gold' as never)).rejects.toThrow(StoreInputError);
    expect(await t.store.listVendors()).toEqual([]);
  });

  it('ping answers when the database does', async () => {
    await expect(t.store.ping()).resolves.toBeUndefined();
  });
});
