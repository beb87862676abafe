import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acme, connectionFor, openTestStore, type TestStore } from '../testing/open-test-store.js';

describe.each(testDialects())('gateway store: secret rotation on $name', ({ name }) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(name);
    await t.store.ensureVendor(acme);
  });
  afterEach(() => t.close());

  it('accepts old and new secrets until the overlap deadline, then only the new one', async () => {
    const { connection, secret: oldSecret } = await t.store.createConnection(connectionFor('store-001'));
    const overlapUntil = new Date(t.clock.now().getTime() + 60 * 60 * 1000);
    t.clock.advance(1);
    const rotated = await t.store.rotateSecret(connection.id, { overlapUntil });
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.connection.secretCount).toBe(2);
    // newest first: the verifier tries the likeliest secret first
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([rotated.secret, oldSecret]);

    t.clock.set(new Date(overlapUntil.getTime() - 1));
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([rotated.secret, oldSecret]);
    t.clock.set(overlapUntil); // the deadline itself is past: "a secret past expires_at is not accepted"
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([rotated.secret]);
    expect((await t.store.getConnection(connection.id))?.secretCount).toBe(1);

    // also true for a store instance that never had it cached (fresh SQL read)
    const fresh = await t.another({ cacheTtlMs: 0 });
    expect((await fresh.find('acme-pos', 'store-001'))?.secrets).toEqual([rotated.secret]);
  });

  it('rotating with an overlap deadline of now revokes the old secret at once', async () => {
    const { connection } = await t.store.createConnection(connectionFor('store-001', 'whsec_leaked'));
    const { secret } = await t.store.rotateSecret(connection.id, { overlapUntil: t.clock.now() });
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([secret]);
  });

  it('a second rotation never extends an earlier deadline, and drops secrets already expired', async () => {
    const { connection, secret: s1 } = await t.store.createConnection(connectionFor('store-001', 'whsec_one'));
    const start = t.clock.now().getTime();
    t.clock.advance(1);
    const { secret: s2 } = await t.store.rotateSecret(connection.id, { overlapUntil: new Date(start + 1_000), secret: 'whsec_two' });
    t.clock.advance(1);
    const { secret: s3 } = await t.store.rotateSecret(connection.id, { overlapUntil: new Date(start + 10_000) });
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([s3, s2, s1]);
    t.clock.set(new Date(start + 1_000));
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([s3, s2]);
    t.clock.set(new Date(start + 10_000));
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([s3]);

    t.clock.advance(1);
    const { secret: s4 } = await t.store.rotateSecret(connection.id, { overlapUntil: new Date(start + 20_000) });
    const raw = await t.database.db.selectFrom('gw_connection_secrets').select('id').where('connection_id', '=', connection.id).execute();
    expect(raw).toHaveLength(2); // s1 and s2 were past their deadline and are gone; s3 and s4 remain
    expect((await t.store.find('acme-pos', 'store-001'))?.secrets).toEqual([s4, s3]);
  });

  it('concurrent rotations leave every issued secret accounted for', async () => {
    const { connection } = await t.store.createConnection(connectionFor('store-001'));
    const overlapUntil = new Date(t.clock.now().getTime() + 60_000);
    const issued = await Promise.all([1, 2, 3, 4].map(() => t.store.rotateSecret(connection.id, { overlapUntil })));
    const secrets = (await t.store.find('acme-pos', 'store-001'))?.secrets ?? [];
    expect(secrets).toHaveLength(5);
    for (const { secret } of issued) expect(secrets).toContain(secret);
  });

  it('rejects an invalid overlap deadline', async () => {
    const { connection } = await t.store.createConnection(connectionFor('store-001'));
    await expect(t.store.rotateSecret(connection.id, { overlapUntil: new Date('nope') })).rejects.toThrow(/overlapUntil/);
    expect((await t.store.getConnection(connection.id))?.secretCount).toBe(1);
  });
});
