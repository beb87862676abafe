import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acme, connectionFor, openTestStore, type TestStore } from '../testing/open-test-store.js';

/** Remove every connection row behind the store's back: a cached answer is then the only answer. */
const wipeConnectionsBehindTheStore = async (t: TestStore) => {
  await t.database.db.deleteFrom('gw_connection_secrets').execute();
  await t.database.db.deleteFrom('gw_connections').execute();
};

describe.each(testDialects())('gateway store: lookup cache on $name', ({ name }) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(name, { cacheTtlMs: 5_000 });
    await t.store.ensureVendor(acme);
  });
  afterEach(() => t.close());

  it('serves a found connection from memory for cacheTtlMs (no SQL), then reads again', async () => {
    const { secret } = await t.store.createConnection(connectionFor('store-001'));
    const first = await t.store.find('acme-pos', 'store-001');
    await wipeConnectionsBehindTheStore(t);
    t.clock.advance(4_999);
    const cached = await t.store.find('acme-pos', 'store-001');
    expect(cached).toBe(first); // the very same object: no query, no decryption
    expect(cached?.secrets).toEqual([secret]);
    t.clock.advance(1);
    expect(await t.store.find('acme-pos', 'store-001')).toBeNull();
  });

  it('remembers a miss briefly, and a creation through this store is visible at once', async () => {
    expect(await t.store.find('acme-pos', 'store-001')).toBeNull();
    const other = await t.another();
    await other.createConnection(connectionFor('store-001')); // another process: this one still holds the miss
    expect(await t.store.find('acme-pos', 'store-001')).toBeNull();
    t.clock.advance(1_000);
    expect(await t.store.find('acme-pos', 'store-001')).not.toBeNull();

    expect(await t.store.find('acme-pos', 'store-002')).toBeNull();
    await t.store.createConnection(connectionFor('store-002'));
    expect(await t.store.find('acme-pos', 'store-002')).not.toBeNull();
  });

  it('drops the entry on deactivation and rotation through this store', async () => {
    const { connection, secret } = await t.store.createConnection(connectionFor('store-001'));
    expect((await t.store.find('acme-pos', 'store-001'))?.active).toBe(true);
    await t.store.setConnectionActive(connection.id, false);
    expect((await t.store.find('acme-pos', 'store-001'))?.active).toBe(false);
    await t.store.setConnectionActive(connection.id, true);
    const rotated = await t.store.rotateSecret(connection.id, { overlapUntil: t.clock.now() });
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([rotated.secret]);
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).not.toContain(secret);
  });

  it('another process sees a deactivation within cacheTtlMs', async () => {
    const { connection } = await t.store.createConnection(connectionFor('store-001'));
    const other = await t.another();
    expect((await other.find('acme-pos', 'store-001'))?.active).toBe(true);
    await t.store.setConnectionActive(connection.id, false);
    expect((await other.find('acme-pos', 'store-001'))?.active).toBe(true); // still within the TTL
    t.clock.advance(5_000);
    expect((await other.find('acme-pos', 'store-001'))?.active).toBe(false);
  });

  it('shares one load among concurrent misses and never caches a read older than a write', async () => {
    const { connection } = await t.store.createConnection(connectionFor('store-001'));
    const burst = await Promise.all(Array.from({ length: 50 }, () => t.store.find('acme-pos', 'store-001')));
    expect(new Set(burst).size).toBe(1);

    // A lookup in flight while the connection is deactivated must not put the old row back in the cache.
    await t.store.close(); // empties the cache
    const inFlight = t.store.find('acme-pos', 'store-001');
    await t.store.setConnectionActive(connection.id, false);
    await inFlight;
    expect((await t.store.find('acme-pos', 'store-001'))?.active).toBe(false);
  });

  it('keeps the cache bounded', async () => {
    const small = await t.another({ cacheMaxEntries: 10 });
    for (let i = 0; i < 30; i += 1) await small.createConnection(connectionFor(`s-${i}`));
    for (let i = 0; i < 30; i += 1) expect((await small.find('acme-pos', `s-${i}`))?.storeId).toBe(`s-${i}`);
    await wipeConnectionsBehindTheStore(t);
    let stillCached = 0; // newest first: a miss would itself take a cache slot
    for (let i = 29; i >= 0; i -= 1) if (await small.find('acme-pos', `s-${i}`)) stillCached += 1;
    expect(stillCached).toBeGreaterThan(0);
    expect(stillCached).toBeLessThanOrEqual(10);
  });

  it('with cacheTtlMs 0 every lookup reads the database', async () => {
    const uncached = await t.another({ cacheTtlMs: 0 });
    await uncached.createConnection(connectionFor('store-001'));
    expect(await uncached.find('acme-pos', 'store-001')).not.toBeNull();
    await wipeConnectionsBehindTheStore(t);
    expect(await uncached.find('acme-pos', 'store-001')).toBeNull();
  });
});
