import { randomBytes } from 'node:crypto';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acme, connectionFor, openTestStore, type TestStore } from '../testing/open-test-store.js';
import { SecretBoxError } from './secret-box.js';
import { createGatewayStore } from './sql-gateway-store.js';

/** Every text cell of every gw_ table, as the database holds it. */
async function dumpGatewayTables(t: TestStore): Promise<string> {
  const cells: unknown[] = [];
  for (const table of ['gw_vendors', 'gw_connections', 'gw_connection_secrets']) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(t.database.db);
    cells.push(...rows);
  }
  return JSON.stringify(cells);
}

describe.each(testDialects())('gateway store: encryption at rest on $name', ({ name }) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(name);
  });
  afterEach(() => t.close());

  it('never stores secrets, credentials or vendor settings in clear', async () => {
    await t.store.ensureVendor({ slug: 'shopify', name: 'Shopify', tier: 'featured', settings: { appSecret: 'app-secret-PLAINTEXT' } });
    await t.store.ensureVendor(acme);
    const generated = await t.store.createConnection(connectionFor('store-001'));
    const chosen = await t.store.createConnection({
      ...connectionFor('store-002', 'whsec_chosen_PLAINTEXT'),
      credentials: { accessToken: 'token-PLAINTEXT' },
    });
    const rotated = await t.store.rotateSecret(chosen.connection.id, { overlapUntil: new Date(t.clock.now().getTime() + 1_000) });

    const dump = await dumpGatewayTables(t);
    for (const plaintext of [
      'app-secret-PLAINTEXT',
      'whsec_chosen_PLAINTEXT',
      'token-PLAINTEXT',
      generated.secret,
      rotated.secret,
      'PLAINTEXT',
    ]) {
      expect(dump).not.toContain(plaintext);
    }
    expect(dump).toMatch(/"secret_sealed":"v1:[^"]+"/);
    expect((await t.store.find('acme-pos', 'store-002'))?.secrets).toEqual([rotated.secret, 'whsec_chosen_PLAINTEXT']);
  });

  it('a store opened with another master key cannot decrypt: a clear SecretBoxError, not a silent miss', async () => {
    await t.store.ensureVendor({ ...acme, settings: { appSecret: 's' } });
    const { connection } = await t.store.createConnection({ ...connectionFor('store-001'), credentials: { accessToken: 'a' } });
    const wrongKey = await createGatewayStore({ database: t.database, masterKey: randomBytes(32) });
    try {
      await expect(wrongKey.find('acme-pos', 'store-001')).rejects.toBeInstanceOf(SecretBoxError);
      await expect(wrongKey.find('acme-pos', 'store-001')).rejects.toThrow(/GATEWAY_MASTER_KEY/);
      await expect(wrongKey.getCredentials(connection.id)).rejects.toBeInstanceOf(SecretBoxError);
      await expect(wrongKey.getVendor('acme-pos')).rejects.toBeInstanceOf(SecretBoxError);
      // listing reveals nothing secret, so it still works for the operator
      expect(await wrongKey.listConnections()).toHaveLength(1);
    } finally {
      await wrongKey.close();
    }
    const sameKey = await t.another();
    expect((await sameKey.find('acme-pos', 'store-001'))?.secrets).toHaveLength(1);
  });

  it('a sealed secret copied onto another connection does not open there', async () => {
    await t.store.ensureVendor(acme);
    const a = await t.store.createConnection(connectionFor('store-a', 'whsec_a'));
    const b = await t.store.createConnection(connectionFor('store-b', 'whsec_b'));
    const db = t.database.db;
    const stolen = await db
      .selectFrom('gw_connection_secrets')
      .select('secret_sealed')
      .where('connection_id', '=', a.connection.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('gw_connection_secrets')
      .set({ secret_sealed: stolen.secret_sealed })
      .where('connection_id', '=', b.connection.id)
      .execute();
    const fresh = await t.another({ cacheTtlMs: 0 });
    await expect(fresh.find('acme-pos', 'store-b')).rejects.toBeInstanceOf(SecretBoxError);
  });

  it('does not close the database it was given', async () => {
    await t.store.close();
    await t.store.ping(); // still answers: the caller owns the database
    await expect(t.database.db.selectFrom('gw_vendors').selectAll().execute()).resolves.toEqual([]);
  });
});
