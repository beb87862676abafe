import { isStorableText, type Connection } from '@loyalty-gateway/core';
import { sealContext } from './gateway-tables.js';
import type { RepositoryContext } from './vendor-repository.js';

/**
 * A resolved connection as the cache keeps it: the decrypted secrets with their deadlines, so a
 * cached entry still stops accepting a secret at the exact instant it expires.
 */
export interface LoadedConnection {
  connection: Readonly<Connection>;
  /** Deadline (epoch ms) of each secret in `connection.secrets`, same order; null for none. */
  expiries: Array<number | null>;
  /** The earliest deadline among the secrets; until then `connection` can be returned as is. */
  validUntil: number;
}

export function toLoaded(
  base: Omit<Connection, 'secrets'>,
  secrets: Array<{ secret: string; expiresAt: number | null }>,
): LoadedConnection {
  const expiries = secrets.map((s) => s.expiresAt);
  const deadlines = expiries.filter((e): e is number => e !== null);
  return {
    connection: Object.freeze({ ...base, secrets: Object.freeze(secrets.map((s) => s.secret)) as string[] }),
    expiries,
    validUntil: deadlines.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...deadlines),
  };
}

/** Drop the secrets past their deadline at `nowMs` (only called once the earliest one passed). */
export function withoutExpired(loaded: LoadedConnection, nowMs: number): LoadedConnection {
  const { secrets, ...base } = loaded.connection;
  const kept = secrets
    .map((secret, i) => ({ secret, expiresAt: loaded.expiries[i] ?? null }))
    .filter((s) => s.expiresAt === null || s.expiresAt > nowMs);
  return toLoaded(base, kept);
}

const deadlineOf = (expiresAt: number | null) => (expiresAt === null ? Number.POSITIVE_INFINITY : Number(expiresAt));

/**
 * The hot-path query: one round trip joining the connection with its unexpired secrets, newest
 * first (the verifier tries the likeliest secret first). Inactive connections are returned too.
 */
export async function loadConnection(ctx: RepositoryContext, vendor: string, storeId: string): Promise<LoadedConnection | null> {
  // No store id holds a NUL or an unpaired surrogate (StoreId refuses them), and a featured
  // vendor's body can name one: PostgreSQL refuses a NUL in the query, and both drivers send an
  // unpaired surrogate as U+FFFD, which would find another store.
  if (!isStorableText(storeId)) return null;
  const nowMs = ctx.now().getTime();
  const rows = await ctx.db
    .selectFrom('gw_connections as c')
    .leftJoin('gw_connection_secrets as s', (join) =>
      join.onRef('s.connection_id', '=', 'c.id').on((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', nowMs)])),
    )
    .select([
      'c.id',
      'c.vendor',
      'c.store_id',
      'c.merchant_id',
      'c.outlet_id',
      'c.active',
      's.secret_sealed',
      's.expires_at',
      's.created_at as secret_created_at',
      's.id as secret_id',
    ])
    .where('c.vendor', '=', vendor)
    .where('c.store_id', '=', storeId)
    .execute();
  const first = rows[0];
  if (!first) return null;
  const secrets = rows
    .filter((r) => r.secret_sealed !== null)
    .sort(
      (a, b) =>
        Number(b.secret_created_at) - Number(a.secret_created_at) ||
        // same instant (rotated in the same millisecond): the one without a deadline is the newer
        deadlineOf(b.expires_at) - deadlineOf(a.expires_at) ||
        (String(a.secret_id) < String(b.secret_id) ? -1 : String(a.secret_id) > String(b.secret_id) ? 1 : 0),
    )
    .map((r) => ({
      secret: ctx.box.open(r.secret_sealed as string, sealContext.connectionSecret(first.id)),
      expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    }));
  const base = {
    id: first.id,
    vendor: first.vendor,
    storeId: first.store_id,
    merchantId: first.merchant_id,
    outletId: first.outlet_id,
    active: Number(first.active) === 1,
  };
  return toLoaded(base, secrets);
}
