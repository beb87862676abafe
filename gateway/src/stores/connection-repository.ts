import { randomBytes, randomUUID } from 'node:crypto';
import { lookAlikeKey } from '@loyalty-gateway/core';
import { isUniqueViolation } from '@loyalty-gateway/storage';
import type { Kysely, Transaction } from 'kysely';
import { sealContext, type GatewayTables } from './gateway-tables.js';
import type { ConnectionInput, IssuedSecret, RotateSecretOptions, SecretJson } from './gateway-store-types.js';
import { ConnectionExistsError, ConnectionNotFoundError, LookAlikeStoreIdError, VendorNotFoundError } from './store-errors.js';
import { ConnectionInputSchema, RotateSecretSchema, SecretJsonSchema, parseInput } from './store-inputs.js';
import { createConnectionQueries } from './connection-queries.js';
import type { RepositoryContext } from './vendor-repository.js';

/** `whsec_` + 32 random bytes, base64url: the form of a generated connection secret. */
export const generateConnectionSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** Connections and their secrets: every write, each in one transaction. */
export function createConnectionRepository(ctx: RepositoryContext) {
  const { db, box, now } = ctx;
  const queries = createConnectionQueries(ctx);

  const insertSecret = (trx: Kysely<GatewayTables>, connectionId: string, secret: string, at: number) =>
    trx
      .insertInto('gw_connection_secrets')
      .values({
        id: randomUUID(),
        connection_id: connectionId,
        secret_sealed: box.seal(secret, sealContext.connectionSecret(connectionId)),
        created_at: at,
        expires_at: null,
      })
      .execute();

  async function lockConnection(trx: Transaction<GatewayTables>, connectionId: string) {
    // A no-op update takes the row lock on PostgreSQL (SQLite serialises writers anyway), so two
    // concurrent rotations of one connection run one after the other.
    const locked = await trx
      .updateTable('gw_connections')
      .set({ updated_at: now().getTime() })
      .where('id', '=', connectionId)
      .executeTakeFirst();
    if (locked.numUpdatedRows === 0n) throw new ConnectionNotFoundError(connectionId);
  }

  /**
   * A store id a person could not tell from another store of the same vendor is refused, naming
   * that one (the exact same id is the unique constraint's: ConnectionExistsError). Reads the
   * vendor's store ids: creating a connection is an operator's act, not the hot path.
   */
  async function refuseLookAlike(trx: Kysely<GatewayTables>, vendor: string, storeId: string) {
    const key = lookAlikeKey(storeId);
    const rows = await trx.selectFrom('gw_connections').select(['id', 'store_id']).where('vendor', '=', vendor).execute();
    const twin = rows.find((row) => row.store_id !== storeId && lookAlikeKey(row.store_id) === key);
    if (twin) throw new LookAlikeStoreIdError(vendor, storeId, { storeId: twin.store_id, connectionId: twin.id });
  }

  async function create(input: ConnectionInput): Promise<IssuedSecret> {
    const c = parseInput(ConnectionInputSchema, input, 'connection');
    const secret = c.secret ?? generateConnectionSecret();
    const id = randomUUID();
    const at = now().getTime();
    try {
      await db.transaction().execute(async (trx) => {
        // A no-op update: it finds the vendor and, on PostgreSQL, holds its row, so two look-alike
        // store ids created at once are compared one after the other (SQLite serialises writers anyway).
        const vendor = await trx
          .updateTable('gw_vendors')
          .set((eb) => ({ slug: eb.ref('slug') }))
          .where('slug', '=', c.vendor)
          .executeTakeFirst();
        if (vendor.numUpdatedRows === 0n) throw new VendorNotFoundError(c.vendor);
        await refuseLookAlike(trx, c.vendor, c.storeId);
        await trx
          .insertInto('gw_connections')
          .values({
            id,
            vendor: c.vendor,
            store_id: c.storeId,
            merchant_id: c.merchantId,
            outlet_id: c.outletId,
            active: c.active === false ? 0 : 1,
            credentials_sealed: c.credentials ? box.seal(JSON.stringify(c.credentials), sealContext.connectionCredentials(id)) : null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await insertSecret(trx, id, secret, at);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConnectionExistsError(c.vendor, c.storeId, { cause: error });
      throw error;
    }
    return { connection: await queries.require(id), secret };
  }

  return {
    create,
    get: queries.get,
    require: queries.require,
    list: queries.list,
    locate: queries.locate,

    async ensure(input: ConnectionInput & { secret: string }) {
      const existing = await queries.findSummary(input.vendor, input.storeId);
      if (existing) return { connection: existing, created: false };
      try {
        return { connection: (await create(input)).connection, created: true };
      } catch (error) {
        if (!(error instanceof ConnectionExistsError)) throw error;
        const raced = await queries.findSummary(input.vendor, input.storeId);
        if (!raced) throw error;
        return { connection: raced, created: false };
      }
    },

    async rotateSecret(connectionId: string, options: RotateSecretOptions): Promise<IssuedSecret> {
      const o = parseInput(RotateSecretSchema, options, 'rotation');
      const secret = o.secret ?? generateConnectionSecret();
      const at = now().getTime();
      const deadline = o.overlapUntil.getTime();
      await db.transaction().execute(async (trx) => {
        await lockConnection(trx, connectionId);
        // Secrets already past their deadline are never accepted again: drop them.
        await trx.deleteFrom('gw_connection_secrets').where('connection_id', '=', connectionId).where('expires_at', '<=', at).execute();
        // Older secrets stay accepted until the overlap deadline, never beyond a deadline they had.
        await trx
          .updateTable('gw_connection_secrets')
          .set({ expires_at: deadline })
          .where('connection_id', '=', connectionId)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', deadline)]))
          .execute();
        await insertSecret(trx, connectionId, secret, at);
      });
      return { connection: await queries.require(connectionId), secret };
    },

    async setActive(connectionId: string, active: boolean) {
      const result = await db
        .updateTable('gw_connections')
        .set({ active: active ? 1 : 0, updated_at: now().getTime() })
        .where('id', '=', connectionId)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new ConnectionNotFoundError(connectionId);
      return queries.require(connectionId);
    },

    async getCredentials(connectionId: string): Promise<SecretJson | null> {
      const row = await db.selectFrom('gw_connections').select('credentials_sealed').where('id', '=', connectionId).executeTakeFirst();
      if (!row) throw new ConnectionNotFoundError(connectionId);
      if (row.credentials_sealed === null) return null;
      return JSON.parse(box.open(row.credentials_sealed, sealContext.connectionCredentials(connectionId))) as SecretJson;
    },

    async setCredentials(connectionId: string, credentials: SecretJson | null) {
      const parsed = parseInput(SecretJsonSchema, credentials, 'credentials');
      const sealed = parsed ? box.seal(JSON.stringify(parsed), sealContext.connectionCredentials(connectionId)) : null;
      const result = await db
        .updateTable('gw_connections')
        .set({ credentials_sealed: sealed, updated_at: now().getTime() })
        .where('id', '=', connectionId)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new ConnectionNotFoundError(connectionId);
      return queries.require(connectionId);
    },
  };
}

export type ConnectionRepository = ReturnType<typeof createConnectionRepository>;
