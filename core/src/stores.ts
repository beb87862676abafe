/**
 * Store ports the gateway depends on. Implementations live in the gateway (SQL through Kysely on
 * SQLite or PostgreSQL; in-process or Redis for cross-instance state).
 */

/** A merchant's connection of one vendor product at one store, resolved from the auth headers. */
export interface Connection {
  id: string;
  vendor: string;
  storeId: string;
  merchantId: string;
  outletId: string;
  active: boolean;
  /** Decrypted secrets currently accepted (more than one during a rotation overlap). */
  secrets: string[];
}

export interface ConnectionStore {
  /** The connection for (vendor, storeId) exactly as entered, or null. Secrets not yet expired only. */
  find(vendor: string, storeId: string): Promise<Connection | null>;
}

/**
 * The 24-hour gateway cache in front of the ledger. A hit is only ever written after the ledger
 * committed, so it can answer "duplicate" early; a miss proves nothing and the ledger decides.
 */
export interface IdempotencyCache {
  get(key: string): Promise<string | null>;
  /** Several keys at once, each one's value or null, in order (one round trip where the cache is remote). */
  getMany(keys: readonly string[]): Promise<Array<string | null>>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
