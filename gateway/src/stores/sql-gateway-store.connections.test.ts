import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acme, connectionFor, openTestStore, type TestStore } from '../testing/open-test-store.js';
import { ConnectionExistsError, ConnectionNotFoundError, StoreInputError, VendorNotFoundError } from './store-errors.js';

describe.each(testDialects())('gateway store: connections on $name', ({ name }) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(name);
    await t.store.ensureVendor(acme);
  });
  afterEach(() => t.close());

  it('creates a connection with a generated whsec_ secret that find() resolves', async () => {
    const { connection, secret } = await t.store.createConnection(connectionFor('store-001'));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(connection).toMatchObject({
      vendor: 'acme-pos',
      storeId: 'store-001',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      active: true,
      secretCount: 1,
    });
    expect(connection.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await t.store.find('acme-pos', 'store-001')).toEqual({
      id: connection.id,
      vendor: 'acme-pos',
      storeId: 'store-001',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      active: true,
      secrets: [secret],
    });
    expect(await t.store.find('acme-pos', 'store-002')).toBeNull();
    expect(await t.store.find('other-pos', 'store-001')).toBeNull();
  });

  it('treats store ids with spaces, slashes and other case as distinct and matches them exactly', async () => {
    const ids = ['Store 1', 'store 1', 'STORE 1', 'Store/1', 'Store  1', 'Store\t1', 'Store\\1', 'Störe 1'];
    const created = new Map<string, string>();
    for (const storeId of ids)
      created.set(storeId, (await t.store.createConnection(connectionFor(storeId, `whsec_${storeId}`))).connection.id);
    for (const storeId of ids) {
      const found = await t.store.find('acme-pos', storeId);
      expect(found?.storeId).toBe(storeId);
      expect(found?.id).toBe(created.get(storeId));
      expect(found?.secrets).toEqual([`whsec_${storeId}`]);
    }
    expect(await t.store.find('acme-pos', 'Store   1')).toBeNull();
    expect(await t.store.find('acme-pos', 'store%')).toBeNull();
  });

  it('refuses a second connection for the same vendor and store with ConnectionExistsError', async () => {
    await t.store.createConnection(connectionFor('store-001'));
    const error = await t.store.createConnection(connectionFor('store-001')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionExistsError);
    expect(error).toMatchObject({ code: 'connection_exists', vendor: 'acme-pos', storeId: 'store-001' });
  });

  it('lets exactly one of many concurrent creations of one (vendor, store) win', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => t.store.createConnection(connectionFor('race-store', `whsec_racer_${i}`))),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(7);
    for (const r of lost) expect(r.reason).toBeInstanceOf(ConnectionExistsError);
    const winner = (won[0] as PromiseFulfilledResult<{ secret: string }>).value.secret;
    expect((await t.store.find('acme-pos', 'race-store'))?.secrets).toEqual([winner]);
    expect(await t.store.listConnections({ vendor: 'acme-pos' })).toHaveLength(1);
  });

  it('ensureConnection is idempotent: a second run changes nothing, not even the secret', async () => {
    const first = await t.store.ensureConnection({ ...connectionFor('store-001'), secret: 'whsec_seeded' });
    const again = await t.store.ensureConnection({
      ...connectionFor('store-001'),
      secret: 'whsec_changed',
      outletId: 'o-else',
      active: false,
    });
    expect(first.created).toBe(true);
    expect(again).toEqual({ connection: first.connection, created: false });
    expect(await t.store.find('acme-pos', 'store-001')).toMatchObject({ outletId: 'o-downtown', active: true, secrets: ['whsec_seeded'] });
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => t.store.ensureConnection({ ...connectionFor('store-002'), secret: 'whsec_x' })),
    );
    expect(concurrent.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(concurrent.map((r) => r.connection.id)).size).toBe(1);
  });

  it('returns an inactive connection with active=false, and reactivates it', async () => {
    const { connection, secret } = await t.store.createConnection({ ...connectionFor('store-001'), active: false });
    expect(await t.store.find('acme-pos', 'store-001')).toMatchObject({ id: connection.id, active: false, secrets: [secret] });
    const summary = await t.store.setConnectionActive(connection.id, true);
    expect(summary.active).toBe(true);
    expect((await t.store.find('acme-pos', 'store-001'))?.active).toBe(true);
    await t.store.setConnectionActive(connection.id, false);
    expect((await t.store.find('acme-pos', 'store-001'))?.active).toBe(false);
  });

  it('lists summaries without secrets, filtered by vendor and merchant', async () => {
    await t.store.ensureVendor({ slug: 'shopify', name: 'Shopify', tier: 'featured' });
    const a = await t.store.createConnection(connectionFor('s-1'));
    await t.store.createConnection({ ...connectionFor('s-2'), merchantId: 'm-other' });
    await t.store.createConnection({ ...connectionFor('shop.myshopify.com'), vendor: 'shopify', credentials: { accessToken: 'shpat_x' } });
    const all = await t.store.listConnections();
    expect(all.map((c) => `${c.vendor}/${c.storeId}`)).toEqual(['acme-pos/s-1', 'acme-pos/s-2', 'shopify/shop.myshopify.com']);
    expect(JSON.stringify(all)).not.toContain(a.secret);
    expect(JSON.stringify(all)).not.toContain('shpat_x');
    expect(all[0]).toEqual({ ...a.connection, secretCount: 1, hasCredentials: false });
    expect(all[2]?.hasCredentials).toBe(true);
    expect((await t.store.listConnections({ vendor: 'shopify' })).map((c) => c.storeId)).toEqual(['shop.myshopify.com']);
    expect((await t.store.listConnections({ merchantId: 'm-other' })).map((c) => c.storeId)).toEqual(['s-2']);
    expect(await t.store.getConnection(a.connection.id)).toEqual(all[0]);
    expect(await t.store.getConnection('00000000-0000-0000-0000-000000000000')).toBeNull();
  });

  it('stores credentials encrypted and returns them decrypted', async () => {
    const { connection } = await t.store.createConnection({ ...connectionFor('s-1'), credentials: { accessToken: 'tok_1' } });
    expect(await t.store.getCredentials(connection.id)).toEqual({ accessToken: 'tok_1' });
    await t.store.setCredentials(connection.id, { accessToken: 'tok_2', refresh: 'r' });
    expect(await t.store.getCredentials(connection.id)).toEqual({ accessToken: 'tok_2', refresh: 'r' });
    await t.store.setCredentials(connection.id, null);
    expect(await t.store.getCredentials(connection.id)).toBeNull();
  });

  it('answers unknown ids, unknown vendors and bad input with typed errors', async () => {
    const missing = '00000000-0000-0000-0000-000000000000';
    await expect(t.store.setConnectionActive(missing, false)).rejects.toBeInstanceOf(ConnectionNotFoundError);
    await expect(t.store.rotateSecret(missing, { overlapUntil: new Date() })).rejects.toBeInstanceOf(ConnectionNotFoundError);
    await expect(t.store.getCredentials(missing)).rejects.toBeInstanceOf(ConnectionNotFoundError);
    await expect(t.store.createConnection({ ...connectionFor('s-1'), vendor: 'nobody' })).rejects.toBeInstanceOf(VendorNotFoundError);
    await expect(t.store.createConnection(connectionFor(''))).rejects.toThrow(StoreInputError);
    await expect(t.store.createConnection(connectionFor('x'.repeat(256)))).rejects.toThrow(/storeId/);
    await expect(t.store.createConnection({ ...connectionFor('s-1'), vendor: 'Acme POS' })).rejects.toThrow(/vendor/);
    expect(await t.store.listConnections()).toEqual([]);
  });
});
