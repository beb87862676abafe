import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { ConnectionCache } from './connection-cache.js';
import { loadConnection } from './connection-lookup.js';
import { createConnectionRepository } from './connection-repository.js';
import type { GatewayStore, Vendor } from './gateway-store-types.js';
import type { GatewayTables } from './gateway-tables.js';
import { RotatingTtlMap } from './rotating-ttl-map.js';
import { createSecretBox } from './secret-box.js';
import { createVendorRepository, type RepositoryContext } from './vendor-repository.js';

export interface GatewayStoreOptions {
  /** Opened and migrated by the caller (boot: openDatabases), possibly shared with the engine; never closed here. */
  database: SqlDatabase<any>;
  /** 32-byte key from loadMasterKey(); encrypts secrets, settings and credentials at rest. */
  masterKey: Buffer;
  /** How long lookups are served from memory (default 5000 ms; 0 disables). Other processes see writes within it. */
  cacheTtlMs?: number;
  /** Bound on cached lookups (default 100,000 connections). */
  cacheMaxEntries?: number;
  clock?: () => Date;
}

/** How long a process serves connections and vendors from memory: another process's write is seen within this. */
export const DEFAULT_CACHE_TTL_MS = 5_000;
const MISS_TTL_MS = 1_000;
const DEFAULT_CACHE_MAX_ENTRIES = 100_000;

/**
 * The gateway's SQL store on SQLite or PostgreSQL: vendors, connections and their rotating
 * secrets, on a database boot has migrated. Serves `find` (the hot path of every request) from
 * an in-process cache that writes through this instance invalidate at once.
 */
export async function createGatewayStore(options: GatewayStoreOptions): Promise<GatewayStore> {
  const db = options.database.db as Kysely<GatewayTables>;
  const clock = options.clock ?? (() => new Date());
  const injected = options.clock;
  // The hot path reads the time twice per lookup: no Date allocation unless a clock is injected.
  const nowMs = injected ? () => injected().getTime() : Date.now;
  const ctx: RepositoryContext = { db, box: createSecretBox(options.masterKey), now: clock };
  const ttlMs = Math.max(0, options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS);
  const maxEntries = Math.max(2, options.cacheMaxEntries ?? DEFAULT_CACHE_MAX_ENTRIES);

  const vendors = createVendorRepository(ctx);
  const connections = createConnectionRepository(ctx);
  const connectionCache = new ConnectionCache({
    ttlMs,
    missTtlMs: MISS_TTL_MS,
    maxEntries,
    now: nowMs,
    load: (vendor, storeId) => loadConnection(ctx, vendor, storeId),
  });
  const vendorCache = new RotatingTtlMap<Vendor | null>({ maxEntries: 1_000, now: nowMs, rotateEveryMs: Math.max(ttlMs, 1) });
  let vendorEpoch = 0; // bumped by every vendor write: a read that started before it is not cached

  /** Run a write on one connection, then drop its lookup entry (before and after: see ConnectionCache). */
  async function writeConnection<T>(connectionId: string, write: () => Promise<T>): Promise<T> {
    const location = await connections.locate(connectionId);
    if (location) connectionCache.invalidate(location.vendor, location.storeId);
    try {
      return await write();
    } finally {
      if (location) connectionCache.invalidate(location.vendor, location.storeId);
    }
  }

  async function writeVendor(slug: string, write: () => Promise<Vendor>): Promise<Vendor> {
    vendorEpoch += 1;
    try {
      return await write();
    } finally {
      vendorEpoch += 1;
      vendorCache.delete(slug);
    }
  }

  return {
    find: (vendor, storeId) => connectionCache.find(vendor, storeId),

    upsertVendor: (input) => writeVendor(input.slug, () => vendors.upsert(input)),
    async ensureVendor(input) {
      const result = await vendors.ensure(input);
      if (result.created) {
        vendorEpoch += 1;
        vendorCache.delete(input.slug);
      }
      return result;
    },
    async getVendor(slug) {
      if (ttlMs <= 0) return vendors.get(slug);
      const cached = vendorCache.get(slug);
      if (cached !== undefined) return cached;
      const epoch = vendorEpoch;
      const vendor = await vendors.get(slug);
      if (epoch === vendorEpoch) vendorCache.set(slug, vendor && Object.freeze(vendor), vendor ? ttlMs : Math.min(MISS_TTL_MS, ttlMs));
      return vendor;
    },
    listVendors: () => vendors.list(),
    setVendorTier: (slug, tier) => writeVendor(slug, () => vendors.setTier(slug, tier)),
    setVendorName: (slug, name) => writeVendor(slug, () => vendors.setName(slug, name)),
    setVendorSettings: (slug, settings) => writeVendor(slug, () => vendors.setSettings(slug, settings)),

    async createConnection(input) {
      try {
        return await connections.create(input);
      } finally {
        connectionCache.invalidate(input.vendor, input.storeId); // a cached miss must not hide it
      }
    },
    async ensureConnection(input) {
      const result = await connections.ensure(input);
      if (result.created) connectionCache.invalidate(input.vendor, input.storeId);
      return result;
    },
    getConnection: (connectionId) => connections.get(connectionId),
    listConnections: (filter) => connections.list(filter),
    rotateSecret: (connectionId, rotation) => writeConnection(connectionId, () => connections.rotateSecret(connectionId, rotation)),
    setConnectionActive: (connectionId, active) => writeConnection(connectionId, () => connections.setActive(connectionId, active)),
    getCredentials: (connectionId) => connections.getCredentials(connectionId),
    setCredentials: (connectionId, credentials) =>
      writeConnection(connectionId, () => connections.setCredentials(connectionId, credentials)),

    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      connectionCache.clear();
      vendorCache.clear();
    },
  };
}
